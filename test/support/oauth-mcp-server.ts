import { createHash, randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { z } from "zod"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"

/** What the authorization server does when the browser GETs its authorize URL. */
export type AuthorizeMode = "approve" | "refuse" | "ignore"

export interface OAuthMcpServer {
  /** The MCP endpoint (streamable HTTP, stateless). */
  url: string
  /** What GET /authorize does: redirect with a code, redirect with error=access_denied, or show a page and never redirect. */
  authorizeMode: AuthorizeMode
  /** Seconds an access token lives (its `expires_in`). */
  accessTtlSeconds: number
  /** Counts, for assertions: registrations, authorize visits, token grants by type, MCP requests refused with 401. */
  readonly counts: { registrations: number; authorizations: number; codeGrants: number; refreshGrants: number; refused: number }
  /** Every access token issued so far (tests look for them where they must not be). */
  readonly issuedTokens: string[]
  /** Every refresh token issued so far. */
  readonly refreshTokens: string[]
  /** Redirect URIs the clients registered. */
  readonly redirectUris: string[]
  /** Makes every access token issued so far expire now (refresh tokens stay valid). */
  expireAccessTokens(): void
  /** Refuses every refresh token issued so far (the client must sign in again). */
  revokeRefreshTokens(): void
  close(): Promise<void>
}

/**
 * A small OAuth-protected MCP server of the tests' own, on loopback: an MCP endpoint that answers 401 with
 * `WWW-Authenticate: Bearer resource_metadata=…` without a valid token, RFC 9728 protected-resource
 * metadata, RFC 8414 authorization-server metadata, RFC 7591 dynamic registration, an authorize endpoint
 * that decides without a person (see AuthorizeMode: a test "opens" the page by fetching it), and a token
 * endpoint that checks PKCE (S256), the redirect URI and the client, and issues rotating refresh tokens.
 * The MCP side offers one tool, `whoami`, that says which token it saw.
 */
export async function startOAuthMcpServer(
  options: { authorizeMode?: AuthorizeMode; accessTtlSeconds?: number } = {},
): Promise<OAuthMcpServer> {
  const clients = new Map<string, string[]>()
  const codes = new Map<string, { clientId: string; challenge: string; redirectUri: string }>()
  const access = new Map<string, number>()
  const refresh = new Map<string, string>()
  let base = ""
  const state: OAuthMcpServer = {
    url: "",
    authorizeMode: options.authorizeMode ?? "approve",
    accessTtlSeconds: options.accessTtlSeconds ?? 3600,
    counts: { registrations: 0, authorizations: 0, codeGrants: 0, refreshGrants: 0, refused: 0 },
    issuedTokens: [],
    refreshTokens: [],
    redirectUris: [],
    expireAccessTokens: () => {
      for (const token of access.keys()) access.set(token, 0)
    },
    revokeRefreshTokens: () => refresh.clear(),
    close: async () => undefined,
  }
  const issue = (clientId: string) => {
    const token = `at-${randomUUID()}`
    const refreshToken = `rt-${randomUUID()}`
    access.set(token, Date.now() + state.accessTtlSeconds * 1000)
    refresh.set(refreshToken, clientId)
    state.issuedTokens.push(token)
    state.refreshTokens.push(refreshToken)
    return { access_token: token, token_type: "Bearer", expires_in: state.accessTtlSeconds, refresh_token: refreshToken }
  }

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void> = {
    "/.well-known/oauth-protected-resource/mcp": (_req, res) =>
      json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base], bearer_methods_supported: ["header"] }),
    "/.well-known/oauth-authorization-server": (_req, res) =>
      json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      }),
    "/register": async (req, res) => {
      const body = JSON.parse(await readBody(req)) as { redirect_uris?: string[] }
      const clientId = `client-${randomUUID()}`
      clients.set(clientId, body.redirect_uris ?? [])
      state.redirectUris.push(...(body.redirect_uris ?? []))
      state.counts.registrations++
      json(res, 201, { ...body, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) })
    },
    "/authorize": (_req, res, url) => {
      state.counts.authorizations++
      const p = url.searchParams
      const redirectUri = p.get("redirect_uri") ?? ""
      const clientId = p.get("client_id") ?? ""
      if (!clients.get(clientId)?.includes(redirectUri) || p.get("code_challenge_method") !== "S256" || !p.get("code_challenge")) {
        json(res, 400, { error: "invalid_request" })
        return
      }
      if (state.authorizeMode === "ignore") {
        res.writeHead(200, { "content-type": "text/html" }).end("<p>Waiting for a person who never comes.</p>")
        return
      }
      const back = new URL(redirectUri)
      back.searchParams.set("state", p.get("state") ?? "")
      if (state.authorizeMode === "refuse") back.searchParams.set("error", "access_denied")
      else {
        const code = `code-${randomUUID()}`
        codes.set(code, { clientId, challenge: p.get("code_challenge")!, redirectUri })
        back.searchParams.set("code", code)
      }
      res.writeHead(302, { location: back.href }).end()
    },
    "/token": async (req, res) => {
      const p = new URLSearchParams(await readBody(req))
      if (p.get("grant_type") === "authorization_code") {
        const grant = codes.get(p.get("code") ?? "")
        codes.delete(p.get("code") ?? "")
        const verifier = p.get("code_verifier") ?? ""
        const challenge = createHash("sha256").update(verifier).digest("base64url")
        if (
          !grant ||
          grant.clientId !== p.get("client_id") ||
          grant.redirectUri !== p.get("redirect_uri") ||
          grant.challenge !== challenge
        ) {
          json(res, 400, { error: "invalid_grant" })
          return
        }
        state.counts.codeGrants++
        json(res, 200, issue(grant.clientId))
      } else if (p.get("grant_type") === "refresh_token") {
        const clientId = refresh.get(p.get("refresh_token") ?? "")
        refresh.delete(p.get("refresh_token") ?? "")
        if (!clientId || clientId !== p.get("client_id")) {
          json(res, 400, { error: "invalid_grant" })
          return
        }
        state.counts.refreshGrants++
        json(res, 200, issue(clientId))
      } else json(res, 400, { error: "unsupported_grant_type" })
    },
    "/mcp": async (req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1]
      if (!token || (access.get(token) ?? 0) <= Date.now()) {
        state.counts.refused++
        res
          .writeHead(401, { "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` })
          .end(JSON.stringify({ error: "invalid_token" }))
        return
      }
      // Stateless: a server and transport per request, as the SDK's stateless example does.
      const mcp = new McpServer({ name: "oauth-protected", version: "1.0.0" })
      mcp.registerTool(
        "whoami",
        { description: "Says which access token the call came with", inputSchema: { note: z.string().optional() } },
        async () => ({
          content: [{ type: "text", text: `token #${state.issuedTokens.indexOf(token) + 1}` }],
        }),
      )
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
      res.on("close", () => void transport.close().then(() => mcp.close()))
      await mcp.connect(transport)
      await transport.handleRequest(req, res)
    },
  }

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? "/", base)
    const route = routes[url.pathname]
    if (!route) {
      json(res, 404, { error: "not_found" })
      return
    }
    Promise.resolve(route(req, res, url)).catch((e) => {
      if (!res.headersSent) json(res, 500, { error: String(e) })
    })
  })
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  state.url = `${base}/mcp`
  state.close = async () => {
    http.closeAllConnections()
    await new Promise((resolve) => http.close(resolve))
  }
  return state
}

/** "Opens" a sign-in page the way a browser would: follows the authorization server's redirect to the loopback callback. */
export async function visitSignInPage(url: string): Promise<number> {
  const response = await fetch(url, { redirect: "follow" })
  await response.arrayBuffer()
  return response.status
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}
