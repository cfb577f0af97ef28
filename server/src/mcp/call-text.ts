import type { McpOAuthProvider } from "./oauth-provider"
import type { McpCallResult } from "./port"

/** What a sign-in needs from a connected transport: its OAuth client and the code exchange. */
export type SignInTarget = { oauth: McpOAuthProvider; finishAuth: (code: string) => Promise<void> }

/** An error result the model sees; its summary is the text up to the first colon, or all of it. */
export function errorResult(text: string, summary: "head" | "full" = "head"): McpCallResult {
  return { isError: true, content: [{ type: "text", text }], summary: summary === "full" ? text : text.split(":")[0]! }
}

/** "3/10: message" (or "3: message" without a total), for the front. */
export function progressLine(p: { progress: number; total?: number; message?: string }): string {
  return `${p.progress}${p.total !== undefined ? `/${p.total}` : ""}${p.message ? `: ${p.message.slice(0, 200)}` : ""}`
}

/** An error's message; the SDK's "MCP error -32602: " prefix once, even where the server's message repeats it. */
export function describe(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e)
  return message.replace(/^(MCP error -?\d+: )(?:MCP error -?\d+: )+/, "$1")
}
