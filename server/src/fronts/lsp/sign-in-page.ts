import { type Connection, MessageType, ShowDocumentRequest } from "vscode-languageserver/node"
import { type OpenAuthorizationUrl, signInMessage } from "../../mcp/oauth-flow"
import { boundedRequest } from "./bounded-request"
import type { ClientFeatures } from "./client-features"

/**
 * A remote MCP server's sign-in page, opened by the editor in the user's browser (`window/showDocument`
 * with `external: true`) where the client declared showDocument; otherwise, or when the editor could not
 * open it, the URL in a `window/showMessage` (Helix shows it in its status line) for the user to open.
 */
export function lspSignInPage(connection: Connection, features: () => ClientFeatures, editorTimeoutMs: () => number): OpenAuthorizationUrl {
  return async (request, signal) => {
    if (features().showDocument) {
      const sent = await boundedRequest(
        (token) => connection.sendRequest(ShowDocumentRequest.type, { uri: request.url, external: true }, token),
        editorTimeoutMs(),
        signal,
      )
      if (sent.outcome === "answered" && sent.value.success) return "shown"
    }
    void connection.sendNotification("window/showMessage", { type: MessageType.Warning, message: `agent: ${signInMessage(request)}` })
    return "shown"
  }
}
