import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js"
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import { randomBytes } from "node:crypto"
import { callbackUrl, freeLoopbackPort } from "./oauth-callback"
import type { McpOAuthEntry, McpOAuthStore } from "./oauth-store"

/**
 * The SDK's OAuth client for one remote MCP server (its `auth()` does the rest: protected-resource and
 * authorization-server discovery, dynamic client registration, PKCE, refresh). What it stores goes to the
 * McpOAuthStore; the PKCE verifier and the `state` live only in memory, for the one sign-in in flight.
 * `redirectToAuthorization` does not open anything itself: it records the URL, and ./oauth-flow.ts shows it
 * to the user through the front and waits for the loopback redirect.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  /** Set when the SDK needs the user to sign in: the URL to show. */
  authorizationUrl: URL | undefined
  /** Sent as OAuth `state` and required back on the redirect. */
  readonly expectedState = randomBytes(16).toString("base64url")
  private verifier: string | undefined

  private constructor(
    private readonly store: McpOAuthStore,
    private readonly key: string,
    private entry: McpOAuthEntry,
    /** The loopback port of the redirect URI (the one registered, if there is a registration). */
    readonly port: number,
  ) {}

  /** The provider with what was stored for this server; a port is picked when none was registered yet. */
  static async open(store: McpOAuthStore, key: string): Promise<McpOAuthProvider> {
    const entry = await store.get(key)
    const port = entry.callbackPort ?? (await freeLoopbackPort())
    return new McpOAuthProvider(store, key, entry, port)
  }

  get redirectUrl(): string {
    return callbackUrl(this.port)
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "agent-lsp",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // A public client (RFC 8252 native app): PKCE instead of a secret it could not keep.
      token_endpoint_auth_method: "none",
    }
  }

  state(): string {
    return this.expectedState
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.entry.clientInformation as OAuthClientInformationMixed | undefined
  }

  saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    return this.save({ clientInformation: { ...information }, callbackPort: this.port })
  }

  tokens(): OAuthTokens | undefined {
    return this.entry.tokens as OAuthTokens | undefined
  }

  saveTokens(tokens: OAuthTokens): Promise<void> {
    return this.save({ tokens: { ...tokens } })
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.entry.discoveryState as OAuthDiscoveryState | undefined
  }

  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    return this.save({ discoveryState: { ...state } })
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error("no sign-in is in progress for this MCP server (no PKCE verifier)")
    return this.verifier
  }

  /** The server said stored credentials are no longer valid: forget them (the next sign-in starts afresh). */
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> | void {
    if (scope === "verifier") {
      this.verifier = undefined
      return
    }
    const all = scope === "all"
    return this.save({
      ...(all || scope === "client" ? { clientInformation: undefined, callbackPort: undefined } : {}),
      ...(all || scope === "tokens" ? { tokens: undefined } : {}),
      ...(all || scope === "discovery" ? { discoveryState: undefined } : {}),
    })
  }

  /** The registered port could not be listened on: register again with another one at the next sign-in. */
  forgetRegistration(): Promise<void> {
    return this.invalidateCredentials("client") as Promise<void>
  }

  private async save(change: Partial<McpOAuthEntry>): Promise<void> {
    this.entry = { ...this.entry, ...change }
    await this.store.update(this.key, change)
  }
}
