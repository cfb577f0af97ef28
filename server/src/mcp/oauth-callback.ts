import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { nodeHttp } from "../config/node-http"

const { createServer } = nodeHttp

/** Where the browser comes back to after the user signed in: http://127.0.0.1:<port>/callback. */
export const CALLBACK_PATH = "/callback"

export function callbackUrl(port: number): string {
  return `http://127.0.0.1:${port}${CALLBACK_PATH}`
}

/** How the authorization ended, as the browser's redirect reported it (or did not). */
export type CallbackOutcome = { ok: true; code: string } | { ok: false; reason: string; portTaken?: boolean }

/** A free loopback port now (the registration's redirect URI names it before the listener starts). */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer()
  await listen(server, 0)
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * The loopback listener that receives the authorization server's redirect: only `GET /callback` with the
 * `state` this flow sent counts (anything else is answered 404 or 400 and ignored, so a page that probes
 * the port cannot end the wait). Resolves at the first matching redirect, when `signal` aborts, or after
 * `timeoutMs`; the listener is closed in every case.
 */
export async function awaitCallback(port: number, state: string, timeoutMs: number, signal?: AbortSignal): Promise<CallbackOutcome> {
  let settle: (outcome: CallbackOutcome) => void = () => undefined
  const outcome = new Promise<CallbackOutcome>((resolve) => (settle = resolve))
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1")
    if (req.method !== "GET" || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404).end()
      return
    }
    if (url.searchParams.get("state") !== state) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("This sign-in link is not the one agent-lsp is waiting for.")
      return
    }
    const code = url.searchParams.get("code")
    const error = url.searchParams.get("error")
    const page = code
      ? "Signed in: you can close this window and return to your editor."
      : `Sign-in did not complete (${error ?? "no code"}).`
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(page)
    if (code) settle({ ok: true, code })
    else {
      const detail = url.searchParams.get("error_description")
      settle({
        ok: false,
        reason: `the authorization was refused (${[error ?? "no code", detail].filter(Boolean).join(": ").slice(0, 200)})`,
      })
    }
  })
  try {
    await listen(server, port)
  } catch (e) {
    return { ok: false, reason: `the loopback port ${port} for the sign-in redirect is taken (${(e as Error).message})`, portTaken: true }
  }
  const timer = setTimeout(() => settle({ ok: false, reason: `no sign-in within ${Math.round(timeoutMs / 1000)} s` }), timeoutMs)
  const onAbort = () => settle({ ok: false, reason: "the sign-in was cancelled" })
  signal?.addEventListener("abort", onAbort, { once: true })
  if (signal?.aborted) onAbort()
  try {
    return await outcome
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener("abort", onAbort)
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
}
