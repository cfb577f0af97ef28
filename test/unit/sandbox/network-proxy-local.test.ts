import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { type AddressInfo, connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type NetworkProxy, startNetworkProxy } from "../../../server/src/sandbox/network-proxy"

/**
 * The sandbox's network proxy and names that lead back to this machine: the user approves a name, and a name
 * that resolves to a loopback or link-local address is refused even then (its services run outside the
 * sandbox), while the address written as such, or `localhost`, reaches it. Raw requests over the proxy's
 * socket, as a command's curl sends them (curl itself would rewrite `127.1` before the proxy sees it; other
 * clients do not).
 */

let server: Server
let port: number
let proxy: NetworkProxy
let dir: string
const decided: string[] = []
/** The Host header of each request the loopback server received. */
const hostsSeen: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    hostsSeen.push(req.headers.host ?? "")
    res.end("LOOPBACK-BODY")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.address() as AddressInfo).port
  dir = mkdtempSync(join(tmpdir(), "agent-lsp-proxy-test-"))
  // Every host approved, as a user would approve a name that looks harmless.
  proxy = startNetworkProxy(join(dir, "proxy.sock"), async (host, p) => {
    decided.push(`${host}:${p}`)
    return true
  })
})

afterAll(() => {
  proxy.close()
  server.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Sends `request` on the proxy's socket (after a CONNECT's 200, `tunnelled` through it) and returns all it answered. */
function exchange(request: string, tunnelled = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.socketPath)
    let answer = ""
    socket.on("data", (chunk: Buffer) => {
      answer += chunk
      if (tunnelled && answer.startsWith("HTTP/1.1 200") && answer.endsWith("\r\n\r\n")) socket.write(tunnelled)
    })
    socket.on("error", reject)
    socket.on("close", () => resolve(answer))
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer in 10 s")))
    socket.write(request)
  })
}

describe("the sandbox's network proxy and this machine's own addresses", () => {
  it("refuses an approved name that resolves to a loopback address, saying what to ask for instead", async () => {
    for (const name of ["2130706433", "0x7f000001", "127.1"]) {
      const tunnel = await exchange(`CONNECT ${name}:${port} HTTP/1.1\r\nHost: ${name}:${port}\r\n\r\n`)
      expect(tunnel).toMatch(/^HTTP\/1.1 403/)
      expect(tunnel).toContain(`${name} resolves to 127.0.0.1, an address of this machine`)
      expect(tunnel).toContain("ask for it by its address (127.0.0.1:PORT) or as localhost")
    }
    // Refused after the user's yes: the approval was asked for the name.
    expect(decided).toContain(`2130706433:${port}`)
  })

  it("asks about a plain http:// request to a numeric name by the address it stands for", async () => {
    // The URL parser reads 2130706433 as 127.0.0.1 already, so the question names the machine's address.
    decided.length = 0
    await exchange(`GET http://2130706433:${port}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
    expect(decided).toEqual([`127.0.0.1:${port}`])
  })

  it("reaches the same service by its address as written, or as localhost (the question named it)", async () => {
    const viaTunnel = await exchange(
      `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    )
    expect(viaTunnel).toContain("LOOPBACK-BODY")
    const plain = await exchange(`GET http://localhost:${port}/ HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`)
    expect(plain).toMatch(/^HTTP\/1.1 200/)
    expect(plain).toContain("LOOPBACK-BODY")
  })

  it("sends a plain http:// request with the Host of the URL that was approved, not the one the command wrote", async () => {
    hostsSeen.length = 0
    const answer = await exchange(`GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: unapproved.example\r\nConnection: close\r\n\r\n`)
    expect(answer).toContain("LOOPBACK-BODY")
    expect(hostsSeen).toEqual([`127.0.0.1:${port}`])
  })
})
