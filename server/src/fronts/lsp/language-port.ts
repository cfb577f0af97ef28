import { AgentMethods, type ParamsOf } from "@agent-lsp/protocol"
import type { Connection } from "vscode-languageserver/node"
import type { Settings } from "../../config/schema"
import type { LanguageAnswer, LanguagePort, LanguageRequest } from "../../tools/context"
import { boundedRequest } from "./bounded-request"
import { pathToUri, type DocumentStore } from "./documents"

/**
 * The editor's own language servers over agent/languageFeature (clients that declared
 * experimental.agent.languageFeature): the editor asks the servers of the file's buffer and answers with
 * their LSP result, within agent.timeouts.editorSeconds. A null answer means no server covers the file.
 */
export class LspLanguagePort implements LanguagePort {
  constructor(
    private readonly connection: Connection,
    private readonly documents: DocumentStore,
    private readonly settings: () => Settings,
  ) {}

  async request(request: LanguageRequest, signal: AbortSignal): Promise<LanguageAnswer> {
    const params: ParamsOf<"languageFeature"> = {
      operation: request.operation,
      ...(request.path ? { uri: this.documents.textDocument(request.path)?.uri ?? pathToUri(request.path) } : {}),
      ...(request.position ? { position: request.position } : {}),
      ...(request.query !== undefined ? { query: request.query } : {}),
      ...(request.newName !== undefined ? { newName: request.newName } : {}),
    }
    const seconds = this.settings().timeouts.editorSeconds
    try {
      const sent = await boundedRequest(
        (token) => this.connection.sendRequest(AgentMethods.languageFeature, params, token),
        seconds * 1000,
        signal,
      )
      if (sent.outcome === "cancelled") return { kind: "failed", message: "The request to the editor's language server was cancelled." }
      if (sent.outcome === "timeout")
        return {
          kind: "failed",
          message: `The editor's language server did not answer ${request.operation} within ${seconds} s (agent.timeouts.editorSeconds). Try again, or use search_files.`,
        }
      return sent.value === null || sent.value === undefined ? { kind: "noServer" } : { kind: "answered", result: sent.value }
    } catch (error) {
      return {
        kind: "failed",
        message: `The editor could not answer ${request.operation}: ${(error as Error).message}. Use search_files instead.`,
      }
    }
  }
}
