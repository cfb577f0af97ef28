import { ErrorCodes, MessageType, type DataCallback, type Disposable, type Message, type RequestMessage } from "vscode-languageserver/node"
import { ForwardingReader } from "./forwarding-reader"
import { NOTIFICATION_PARAMS, REQUEST_PARAMS } from "./lsp-params"

/**
 * Checks the params of standard LSP messages before any handler sees them (lsp-params.ts): a handler that
 * dereferences `params.textDocument.uri` of a malformed didOpen, or vscode-jsonrpc reading `params.id` of
 * a `$/cancelRequest` without params, would otherwise throw (and some of those throws end the process).
 * A bad notification is reported with window/logMessage and dropped; a bad request is answered with
 * InvalidParams naming the field.
 */
export class ParamsGuard extends ForwardingReader {
  listen(callback: DataCallback): Disposable {
    return this.inner.listen((message: Message) => {
      const { method, id, params } = message as Partial<RequestMessage>
      if (typeof method !== "string") return callback(message)
      const isRequest = id !== undefined && id !== null
      // Own keys only: a method named "__proto__" or "constructor" must not find Object.prototype's members.
      const table = isRequest ? REQUEST_PARAMS : NOTIFICATION_PARAMS
      const check = Object.hasOwn(table, method) ? table[method] : undefined
      const failure = check?.(params, "params")
      if (!failure) return callback(message)
      if (isRequest) {
        this.answerError(id, ErrorCodes.InvalidParams, `Invalid params for ${method}: ${failure}`)
      } else {
        const text = `agent-lsp: ignored ${method} with invalid params (${failure}).`
        this.notify("window/logMessage", { type: MessageType.Warning, message: text })
      }
    })
  }
}
