import { awaitCallback, type CallbackOutcome } from "./oauth-callback"
import type { McpOAuthProvider } from "./oauth-provider"
import type { McpOAuthStore } from "./oauth-store"

/**
 * Shows the user a remote MCP server's sign-in page, in the front's own way (LSP: window/showDocument with
 * `external: true`; ACP: a URL elicitation; the CLI: a line on stderr). Resolves "declined" only when the
 * user said no to opening it; "shown" otherwise (the flow then waits for the browser's redirect).
 */
export type OpenAuthorizationUrl = (
  request: { server: string; url: string; timeoutSeconds: number },
  signal: AbortSignal,
) => Promise<"shown" | "declined">

/** The sign-in request as one line for a front that can only print or show a message. */
export function signInMessage(request: { server: string; url: string; timeoutSeconds: number }): string {
  return `MCP server "${request.server}" needs you to sign in: open ${request.url} in your browser (waiting up to ${request.timeoutSeconds} s).`
}

/** What the hub needs to sign in to servers that require OAuth. */
export interface McpAuthOptions {
  store: McpOAuthStore
  open: OpenAuthorizationUrl
  /** How long a sign-in may take, from showing the page to the redirect (agent.approval.timeoutSeconds). */
  timeoutMs: () => number
}

export type SignInOutcome = { ok: true } | { ok: false; reason: string }

/**
 * One interactive sign-in: listens on the loopback redirect first (so a fast browser cannot arrive before
 * it), shows the page, waits (bounded) for the redirect with the right `state`, then lets the SDK exchange
 * the code (PKCE) for tokens through `finish`. Never throws.
 */
export async function signIn(
  server: string,
  provider: McpOAuthProvider,
  finish: (code: string) => Promise<void>,
  options: McpAuthOptions,
): Promise<SignInOutcome> {
  const url = provider.authorizationUrl
  // This URL is used once: a later sign-in (the refresh refused) waits for the SDK to make a new one.
  provider.authorizationUrl = undefined
  if (!url) return { ok: false, reason: "the server refused the connection (401) without a sign-in the client could start" }
  const timeoutMs = options.timeoutMs()
  const stop = new AbortController()
  const redirect = awaitCallback(provider.port, provider.expectedState, timeoutMs, stop.signal)
  const declined = options
    .open({ server, url: url.href, timeoutSeconds: Math.round(timeoutMs / 1000) }, stop.signal)
    .catch(() => "shown" as const)
    .then((answer) => (answer === "declined" ? { ok: false as const, reason: "opening the sign-in page was declined" } : never()))
  const outcome: CallbackOutcome = await Promise.race([redirect, declined])
  stop.abort()
  await redirect
  if (!outcome.ok) {
    // Another program holds the registered port: the next sign-in registers again with a free one.
    if (outcome.portTaken) await provider.forgetRegistration().catch(() => undefined)
    return outcome
  }
  try {
    await finish(outcome.code)
    return { ok: true }
  } catch (e) {
    return { ok: false, reason: `the authorization server did not issue tokens (${(e as Error).message.slice(0, 200)})` }
  }
}

function never(): Promise<never> {
  return new Promise(() => undefined)
}
