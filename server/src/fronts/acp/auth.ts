import { RequestError, type AuthMethod } from "@agentclientprotocol/sdk"
import type { Settings } from "../../config/schema"
import { forgetStoredLogin, hasCredentials, removeStoredLogin, useStoredLogin } from "../../config/stored-login"

/** The terminal method's id: the client runs `agent-lsp login` in a terminal, then calls authenticate. */
export const TERMINAL_LOGIN = "agent-lsp-login"
/** The agent method's id: the agent's own credentials (environment, or the stored login). */
export const AGENT_CREDENTIALS = "agent"

/**
 * ACP authentication. The ACP Registry lists agents that offer an `agent` or a `terminal` method; ours
 * are both about the model API's credentials: the key in the environment or stored by `agent-lsp login`.
 * The key itself never crosses the protocol.
 */
export class AcpAuth {
  constructor(private readonly settings: () => Settings) {}

  methods(): AuthMethod[] {
    return [
      {
        id: AGENT_CREDENTIALS,
        name: "Use agent-lsp's credentials",
        description:
          "The API key from ANTHROPIC_API_KEY / OPENAI_API_KEY, or the one `agent-lsp login` stored (a local server needs only its URL).",
      },
      {
        type: "terminal",
        id: TERMINAL_LOGIN,
        name: "Log in in a terminal",
        description: "Runs `agent-lsp login`: choose the provider, then paste the API key or a local server's base URL.",
        args: ["login"],
      },
    ]
  }

  /** Whether the settings' provider has what a request needs. */
  ready(): boolean {
    const { provider, baseUrl } = this.settings()
    return hasCredentials(provider, baseUrl)
  }

  /** session/new without credentials: ACP's auth_required, naming how to log in. */
  requireReady(): void {
    if (!this.ready())
      throw RequestError.authRequired(
        undefined,
        "agent-lsp has no API key: run `agent-lsp login` in a terminal (or set ANTHROPIC_API_KEY / OPENAI_API_KEY), then try again.",
      )
  }

  /** authenticate: both methods re-read the stored login (a terminal login just wrote it) and check. */
  authenticate(methodId: string): Record<string, never> {
    if (methodId !== AGENT_CREDENTIALS && methodId !== TERMINAL_LOGIN)
      throw RequestError.invalidParams(undefined, `Unknown auth method "${methodId}"; offered: ${AGENT_CREDENTIALS}, ${TERMINAL_LOGIN}.`)
    useStoredLogin()
    this.requireReady()
    return {}
  }

  /** logout: the stored login is removed and its credentials are dropped from this process. */
  logout(): Record<string, never> {
    removeStoredLogin()
    forgetStoredLogin()
    return {}
  }
}
