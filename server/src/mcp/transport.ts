import type { Readable } from "node:stream"
import { registerConfiguredSecrets } from "../config/secrets"
import type { ResolvedMcpServer } from "./config"
import type { McpAuthOptions } from "./oauth-flow"
import { McpOAuthProvider } from "./oauth-provider"
import { McpOAuthStore } from "./oauth-store"
import type { McpSdk } from "./sdk"

type Transport =
  | InstanceType<McpSdk["StdioClientTransport"]>
  | InstanceType<McpSdk["StreamableHTTPClientTransport"]>
  | InstanceType<McpSdk["SSEClientTransport"]>

/** A transport to one server and, for a remote one that may require OAuth, its sign-in state. */
export interface McpTransport {
  transport: Transport
  /** Remote servers only: the SDK's OAuth client (used only if the server answers 401). */
  oauth?: McpOAuthProvider
  /** Exchanges the sign-in's authorization code for tokens (the SDK's finishAuth, PKCE). */
  finishAuth?: (code: string) => Promise<void>
}

/**
 * The transport a server's configuration asks for: stdio (started in `cwd`, its stderr handed to
 * `onStderr`), streamable HTTP or SSE. Remote transports carry an OAuth client when `auth` is given, so a
 * server that answers 401 gets discovery, registration, sign-in and refresh; stored tokens are sent from
 * the first request.
 */
export async function makeTransport(
  sdk: McpSdk,
  server: ResolvedMcpServer,
  cwd: string | undefined,
  onStderr: (text: string) => void,
  auth: McpAuthOptions | undefined,
): Promise<McpTransport> {
  const c = server.config
  registerConfiguredSecrets(`MCP server ${server.name}`, {
    env: "env" in c ? c.env : undefined,
    headers: "headers" in c ? c.headers : undefined,
  })
  if ("command" in c) {
    const transport = new sdk.StdioClientTransport({
      command: c.command,
      args: c.args ?? [],
      env: { ...sdk.getDefaultEnvironment(), ...c.env },
      // Not the workspace unless configured (./start-folder.ts): package runners pick code from there.
      cwd: c.cwd ?? cwd,
      stderr: "pipe",
    })
    // Reading stderr also keeps the pipe from filling up.
    ;(transport.stderr as Readable | null)?.on("data", (chunk: Buffer) => onStderr(chunk.toString("utf8")))
    return { transport }
  }
  const requestInit = c.headers ? { headers: c.headers } : undefined
  const url = new URL(c.url)
  const oauth = auth ? await McpOAuthProvider.open(auth.store, McpOAuthStore.key(server.source, c.url)) : undefined
  const options = { requestInit, ...(oauth ? { authProvider: oauth } : {}) }
  const transport = c.type === "sse" ? new sdk.SSEClientTransport(url, options) : new sdk.StreamableHTTPClientTransport(url, options)
  return { transport, ...(oauth ? { oauth, finishAuth: (code: string) => transport.finishAuth(code) } : {}) }
}
