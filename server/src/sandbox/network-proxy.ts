import { type LookupAddress, type LookupOptions, lookup } from "node:dns"
import type { IncomingMessage, ServerResponse } from "node:http"
import { BlockList, connect, type Socket } from "node:net"
import { nodeHttp } from "../config/node-http"
import { LOCAL_ADDRESS_RANGES } from "./policy"

/** dns.lookup's callback, in both of its forms (one address, or all of them when `options.all`). */
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string, family: number) => void

const { createServer, request: httpRequest } = nodeHttp

/**
 * The only way out of a sandboxed command's network namespace: an HTTP proxy (plain requests and CONNECT
 * tunnels for HTTPS) on a unix socket that is bound into the sandbox, where socat forwards a loopback port
 * to it. Every host a command asks for goes through `decide` (the allow list, else the user) before a
 * connection is made; the answer is kept for the rest of the command. Every wait is bounded.
 */

export type HostDecider = (host: string, port: number) => Promise<boolean>

export interface NetworkProxy {
  readonly socketPath: string
  /** Stops listening and ends every open connection. */
  close(): void
}

/** The longest wait for a decision (the user's answer has its own, shorter, bound: approval.timeoutSeconds). */
const DECISION_TIMEOUT_MS = 15 * 60 * 1000
const CONNECT_TIMEOUT_MS = 30_000
/** A client that does not finish its request head in this time is dropped. */
const HEADERS_TIMEOUT_MS = 30_000

export function startNetworkProxy(socketPath: string, decide: HostDecider): NetworkProxy {
  const sockets = new Set<Socket>()
  const decisions = new Map<string, Promise<boolean>>()
  const allowed = (host: string, port: number): Promise<boolean> => {
    const key = `${host.toLowerCase()}:${port}`
    let decision = decisions.get(key)
    if (!decision) {
      decision = bounded(
        decide(host, port).catch(() => false),
        DECISION_TIMEOUT_MS,
        false,
      )
      decisions.set(key, decision)
    }
    return decision
  }
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
    socket.on("error", () => socket.destroy())
  }

  const server = createServer((req, res) => void forward(req, res, allowed, track))
  server.headersTimeout = HEADERS_TIMEOUT_MS
  server.requestTimeout = 0 // uploads and downloads may take long; the command's own timeout bounds them
  server.on("connection", track)
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = parseAuthority(req.url ?? "")
    if (!target) return void client.end("HTTP/1.1 400 Bad Request\r\n\r\n")
    void allowed(target.host, target.port).then((ok) => {
      if (!ok) return void client.end(refusal(target.host))
      const upstream = connect({ host: target.host, port: target.port, timeout: CONNECT_TIMEOUT_MS, lookup: lookupNotLocal })
      track(upstream)
      upstream.once("timeout", () => upstream.destroy())
      upstream.once("connect", () => {
        upstream.setTimeout(0)
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n")
        if (head.length) upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      })
      upstream.once("error", (error) =>
        client.end(error instanceof LocalAddressRefused ? forbidden(error.message) : "HTTP/1.1 502 Bad Gateway\r\n\r\n"),
      )
      upstream.once("close", () => client.destroy())
      client.once("close", () => upstream.destroy())
    })
  })
  server.on("clientError", (_error, socket) => socket.destroy())
  server.on("error", () => undefined)
  server.listen(socketPath)
  return {
    socketPath,
    close() {
      server.close()
      for (const socket of sockets) socket.destroy()
    },
  }
}

/** A plain-HTTP request in absolute form (`GET http://host/path`): checked, then forwarded as origin form. */
async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  allowed: (host: string, port: number) => Promise<boolean>,
  track: (socket: Socket) => void,
): Promise<void> {
  let url: URL
  try {
    url = new URL(req.url ?? "")
  } catch {
    return void res.writeHead(400).end("agent-lsp sandbox proxy: expected an absolute http:// URL\n")
  }
  if (url.protocol !== "http:") return void res.writeHead(400).end("agent-lsp sandbox proxy: only http:// requests and CONNECT\n")
  const port = Number(url.port || 80)
  if (!(await allowed(url.hostname, port))) return void res.writeHead(403, { "content-type": "text/plain" }).end(refusalText(url.hostname))
  const headers = { ...req.headers }
  // The host that was checked is the one the request goes to, by the URL: a Host header naming another
  // (`GET http://allowed/` with `Host: other`) would let a shared front end (a CDN, a virtual-hosting
  // server) serve the unapproved site. RFC 9112 §3.2.2: a proxy replaces Host with the target's authority.
  headers.host = url.host
  delete headers["proxy-connection"]
  delete headers["proxy-authorization"]
  const upstream = httpRequest(
    {
      host: url.hostname.replace(/^\[|\]$/g, ""), // an IPv6 address without its URL brackets
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      timeout: CONNECT_TIMEOUT_MS,
      lookup: lookupNotLocal,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    },
  )
  upstream.on("socket", track)
  upstream.on("timeout", () => upstream.destroy(new Error("timeout")))
  upstream.on("error", (error) => {
    if (res.headersSent) return void res.destroy()
    if (error instanceof LocalAddressRefused) return void res.writeHead(403, { "content-type": "text/plain" }).end(error.message)
    res.writeHead(502).end("agent-lsp sandbox proxy: the host did not answer\n")
  })
  req.pipe(upstream)
}

/** `host:port` of a CONNECT request (IPv6 in brackets); undefined when malformed. */
export function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:/\s[\]]+):(\d{1,5})$/.exec(authority)
  if (!match) return undefined
  const port = Number(match[2])
  if (port < 1 || port > 65535) return undefined
  return { host: match[1]!.replace(/^\[|\]$/g, ""), port }
}

function refusalText(host: string): string {
  return `agent-lsp sandbox: network access to ${host} was refused: it is not in agent.sandbox.network.allowedHosts and the user did not approve it.\n`
}

function refusal(host: string): string {
  return forbidden(refusalText(host))
}

function forbidden(body: string): string {
  return `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

const localAddresses = new BlockList()
for (const range of LOCAL_ADDRESS_RANGES) localAddresses.addSubnet(range.network, range.prefix, range.family)

class LocalAddressRefused extends Error {}

/**
 * dns.lookup for the proxy's connections, refusing a name that resolves to this machine (policy.ts
 * LOCAL_ADDRESS_RANGES): the user approved the name, not the machine. An address written as such never comes
 * here (net connects to it directly: the question named it), and `localhost` is what it says.
 */
export function lookupNotLocal(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return void callback(error, "", 4)
    const local = /^localhost\.?$|\.localhost\.?$/i.test(hostname) ? undefined : addresses.find((a) => isLocal(a.address, a.family))
    if (local) {
      const refused = new LocalAddressRefused(
        `agent-lsp sandbox: ${hostname} resolves to ${local.address}, an address of this machine, whose services run outside the sandbox: refused. To reach a service on this machine, ask for it by its address (${local.family === 6 ? `[${local.address}]` : local.address}:PORT) or as localhost, so the question names it.\n`,
      )
      return void callback(refused, "", 4)
    }
    if (options.all) return void (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses)
    callback(null, addresses[0]!.address, addresses[0]!.family)
  })
}

function isLocal(address: string, family: number): boolean {
  return localAddresses.check(address, family === 6 ? "ipv6" : "ipv4")
}

function bounded<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms)
    timer.unref()
    void promise.then((value) => {
      clearTimeout(timer)
      resolve(value)
    })
  })
}
