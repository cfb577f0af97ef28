import { readFile } from "node:fs/promises"
import { pathToFileURL } from "node:url"
import type { Settings } from "../config/schema"
import type { LanguageAnswer, LanguagePort, LanguageRequest } from "../tools/context"
import type { LanguageServerClient } from "./language-server-client"
import type { LanguageServers } from "./language-servers"

/** The LSP request of each single-step operation (call hierarchies take two, see callHierarchy). */
const METHODS = {
  goToDefinition: "textDocument/definition",
  findReferences: "textDocument/references",
  hover: "textDocument/hover",
  documentSymbol: "textDocument/documentSymbol",
  goToImplementation: "textDocument/implementation",
  rename: "textDocument/rename",
} as const

/** Of agent.lsp.timeoutSeconds, what waiting for a document's analysis leaves for the request itself. */
const REQUEST_RESERVE_MS = 5_000
/** Largest file opened in a language server for a question (the server reads it whole). */
const MAX_FILE_BYTES = 10 * 1024 * 1024

/**
 * The lsp tool's questions answered by the language servers the core starts (agent.languageServers): the
 * file is opened in its server with didOpen from disk (didChange when it changed since), then asked. The
 * whole exchange, the server's start included, stays within agent.lsp.timeoutSeconds.
 */
export class ServerLanguagePort implements LanguagePort {
  constructor(
    private readonly servers: LanguageServers,
    private readonly settings: () => Settings,
  ) {}

  async request(request: LanguageRequest, signal: AbortSignal): Promise<LanguageAnswer> {
    const timeoutMs = this.settings().lsp.timeoutSeconds * 1000
    if (request.operation === "workspaceSymbol" && !request.path) return this.workspaceSymbol(request.query ?? "", timeoutMs, signal)
    const client = request.path ? this.servers.forPath(request.path) : undefined
    if (!client) return { kind: "noServer" }
    if (client.failure) return failed(client, client.failure)
    try {
      return { kind: "answered", result: await this.ask(client, request, timeoutMs, signal) }
    } catch (error) {
      return failed(client, (error as Error).message)
    }
  }

  private async ask(client: LanguageServerClient, request: LanguageRequest, timeoutMs: number, signal: AbortSignal): Promise<unknown> {
    const deadline = Date.now() + timeoutMs
    const path = request.path!
    const uri = pathToFileURL(path).toString()
    const text = await readSmallText(path)
    const mark = await withinDeadline(client.sync(uri, text), deadline, signal, `${client.name} did not start within ${timeoutMs / 1000} s`)
    const left = () => Math.max(deadline - Date.now(), 1)
    // A document just opened or changed: let the server analyse it first (bounded; a server that publishes
    // no diagnostics costs this wait once per document).
    if (mark !== undefined) await client.analysed(uri, mark, Math.max(left() - REQUEST_RESERVE_MS, 1), signal)
    const textDocument = { uri }
    const position = request.position ?? { line: 0, character: 0 }
    switch (request.operation) {
      case "workspaceSymbol":
        return client.request("workspace/symbol", { query: request.query ?? "" }, left(), signal)
      case "documentSymbol":
        return client.request(METHODS.documentSymbol, { textDocument }, left(), signal)
      case "findReferences":
        return client.request(METHODS.findReferences, { textDocument, position, context: { includeDeclaration: true } }, left(), signal)
      case "rename":
        return client.request(METHODS.rename, { textDocument, position, newName: request.newName ?? "" }, left(), signal)
      case "incomingCalls":
      case "outgoingCalls": {
        const items = await client.request("textDocument/prepareCallHierarchy", { textDocument, position }, left(), signal)
        if (!Array.isArray(items) || items.length === 0) return []
        const method = request.operation === "incomingCalls" ? "callHierarchy/incomingCalls" : "callHierarchy/outgoingCalls"
        const calls = await Promise.all(items.map((item) => client.request(method, { item }, left(), signal)))
        return calls.flatMap((c) => (Array.isArray(c) ? c : []))
      }
      default:
        return client.request(METHODS[request.operation], { textDocument, position }, left(), signal)
    }
  }

  /** workspace/symbol without a file: every server running now (they know the projects of the files they have open). */
  private async workspaceSymbol(query: string, timeoutMs: number, signal: AbortSignal): Promise<LanguageAnswer> {
    const clients = this.servers.running()
    if (clients.length === 0) return { kind: "noServer" }
    const answers = await Promise.all(
      clients.map((c) => c.request("workspace/symbol", { query }, timeoutMs, signal).catch(() => undefined)),
    )
    return { kind: "answered", result: answers.flatMap((a) => (Array.isArray(a) ? a : [])) }
  }
}

function failed(client: LanguageServerClient, why: string): LanguageAnswer {
  return {
    kind: "failed",
    message: `The ${client.name} gave no answer: ${why}. Try again, or use search_files for this question.`,
  }
}

async function readSmallText(path: string): Promise<string> {
  const bytes = await readFile(path)
  if (bytes.length > MAX_FILE_BYTES) throw new Error(`the file is over ${MAX_FILE_BYTES / 1024 / 1024} MiB`)
  return bytes.toString("utf8")
}

/** `promise`, unless `deadline` passes or `signal` aborts first (then it rejects with `message`). */
function withinDeadline<T>(promise: Promise<T>, deadline: number, signal: AbortSignal, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const finish = (done: () => void) => {
      clearTimeout(timer)
      signal.removeEventListener("abort", onAbort)
      done()
    }
    const onAbort = () => finish(() => reject(new Error("the request was cancelled")))
    const timer = setTimeout(() => finish(() => reject(new Error(message))), Math.max(deadline - Date.now(), 1))
    if (signal.aborted) return onAbort()
    signal.addEventListener("abort", onAbort, { once: true })
    promise.then(
      (value) => finish(() => resolve(value)),
      (error) => finish(() => reject(error)),
    )
  })
}

/**
 * The editor's language servers first (agent/languageFeature); where they have none for the file, the
 * core's own (agent.languageServers), when one is configured for it.
 */
export function editorFirst(editor: LanguagePort, servers: LanguagePort): LanguagePort {
  return {
    async request(request, signal) {
      const answer = await editor.request(request, signal)
      return answer.kind === "noServer" ? servers.request(request, signal) : answer
    },
  }
}
