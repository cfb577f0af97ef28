import { randomUUID } from "node:crypto"
import type { AgentContext } from "@agentclientprotocol/sdk"
import type { LogSink } from "../../core/logger"
import { type OpenAuthorizationUrl, signInMessage } from "../../mcp/oauth-flow"
import type { AcpSession } from "./acp-session"

/**
 * A remote MCP server's sign-in page over ACP: a URL-mode `elicitation/create` in the active session where
 * the client declared `elicitation.url` (it asks the user and opens the page; a decline or cancel ends the
 * sign-in); otherwise the URL as the agent's message in that session, or, with no session yet, on stderr.
 */
export function acpSignInPage(
  client: AgentContext,
  urlElicitation: boolean,
  activeSession: () => Pick<AcpSession, "id" | "send"> | undefined,
  sink: LogSink,
): OpenAuthorizationUrl {
  return async (request, signal) => {
    const session = activeSession()
    const message = signInMessage(request)
    if (session && urlElicitation) {
      try {
        const response = await client.request(
          "elicitation/create",
          { sessionId: session.id, mode: "url", elicitationId: randomUUID(), url: request.url, message },
          { cancellationSignal: signal, stopWaitingOnCancel: true },
        )
        return response.action === "accept" ? "shown" : "declined"
      } catch {
        // The client declared URL elicitation but could not ask: fall through to the message.
      }
    }
    if (session) session.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n\n${message}\n` } })
    else sink("warn", message)
    return "shown"
  }
}
