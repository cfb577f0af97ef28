import { any, arr, int, int32, nul, obj, oneOf, opt, str, type Check } from "./shapes"

const position = obj({ line: int, character: int })
const range = obj({ start: position, end: position })
const textDocumentId = obj({ uri: str })
const token = oneOf(int, str)
const folder = obj({ uri: str, name: str })

/** Notifications: a message that fails its check is logged and dropped, never handed to a handler. */
export const NOTIFICATION_PARAMS: Record<string, Check> = {
  "$/cancelRequest": obj({ id: token }),
  "$/setTrace": obj({ value: str }),
  "$/progress": obj({ token }),
  "window/workDoneProgress/cancel": obj({ token }),
  "workspace/didChangeConfiguration": obj(),
  "workspace/didChangeWorkspaceFolders": obj({ event: obj({ added: arr(folder), removed: arr(folder) }) }),
  "workspace/didChangeWatchedFiles": obj({ changes: arr(obj({ uri: str, type: int })) }),
  "textDocument/didOpen": obj({ textDocument: obj({ uri: str, languageId: str, version: int, text: str }) }),
  "textDocument/didChange": obj({
    textDocument: obj({ uri: str, version: int }),
    contentChanges: arr(obj({ text: str, range: opt(range) })),
  }),
  "textDocument/didSave": obj({ textDocument: textDocumentId, text: opt(str) }),
  "textDocument/didClose": obj({ textDocument: textDocumentId }),
}

/** Standard requests: a request that fails its check is answered with InvalidParams and the message. */
export const REQUEST_PARAMS: Record<string, Check> = {
  initialize: obj({
    capabilities: obj(),
    // vscode-languageserver watches this pid and exits when it is gone; one past LSP's integer range (1e20)
    // makes that check throw, which reads as "gone": the server would exit right after initialize.
    processId: opt(oneOf(nul, int32)),
    rootUri: opt(oneOf(nul, str)),
    rootPath: opt(oneOf(nul, str)),
    workspaceFolders: opt(oneOf(nul, arr(folder))),
    initializationOptions: any,
  }),
  "textDocument/codeAction": obj({
    textDocument: textDocumentId,
    range,
    context: obj({ diagnostics: arr(obj({ range, message: str })) }),
  }),
  "textDocument/codeLens": obj({ textDocument: textDocumentId }),
  "workspace/executeCommand": obj({ command: str, arguments: opt(arr(any)) }),
}
