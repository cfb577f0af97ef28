/**
 * What the OS sandbox costs browser_action: a whole browser session (start Chromium, load a loopback page,
 * take the screenshot, close), and one more step on the open browser (load the page again), through the
 * real BrowserSession with Debian's Chromium. Baseline: the same unsandboxed (Chromium started directly,
 * CDP over a port), in the same run, interleaved. Sandboxed: bwrap, the DevTools pipe, the network proxy.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { performance } from "node:perf_hooks"
import { BrowserSession, type BrowserSource } from "../server/src/browser"
import { browserSandbox } from "../server/src/sandbox/browser-sandbox"
import { tempWorkspace } from "../test/support/temp-workspace"
import { ratio, stats, type BenchTable } from "./lib"

const RUNS = Number(process.env.BROWSER_BENCH_RUNS ?? 5)

export default async function bench(): Promise<BenchTable[]> {
  const ws = await tempWorkspace({ ".rooignore": "secret/\n", "secret/x.txt": "x" })
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<h1>bench page</h1>"))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  const env = process.env
  const sources: [string, () => BrowserSource][] = [
    ["unsandboxed (CDP port)", () => ({ kind: "launch", executablePath: "/usr/bin/chromium", env })],
    [
      "sandboxed (bwrap, pipe, proxy)",
      () => ({
        kind: "sandboxed",
        executablePath: "/usr/bin/chromium",
        env,
        jail: () => browserSandbox({ workspaceFolders: [ws.root], allowedHosts: [] }),
      }),
    ],
  ]
  const times = new Map<string, { session: number[]; step: number[] }>()
  const once = async (name: string, source: BrowserSource) => {
    const start = performance.now()
    const session = await BrowserSession.open({ source, viewport: { width: 900, height: 600 }, checkUrl: () => undefined })
    session.allowOrigin(url)
    const first = await session.navigate(url)
    if (first.errors.length) throw new Error(`${name}: ${first.errors.join("; ")}`)
    const stepStart = performance.now()
    await session.navigate(url)
    const step = performance.now() - stepStart
    await session.close()
    const entry = times.get(name) ?? { session: [], step: [] }
    entry.session.push(performance.now() - start)
    entry.step.push(step)
    times.set(name, entry)
  }
  try {
    for (const [name, source] of sources) await once(`warm-up ${name}`, source())
    for (let i = 0; i < RUNS; i++) for (const [name, source] of sources) await once(name, source())
  } finally {
    server.close()
    await ws.cleanup()
  }
  const base = times.get(sources[0]![0])!
  const rows = sources.map(([name]) => {
    const t = times.get(name)!
    const session = stats(t.session).median
    const step = stats(t.step).median
    return [name, session, ratio(session, stats(base.session).median), step, ratio(step, stats(base.step).median)]
  })
  return [
    {
      title: `browser_action in the OS sandbox (${RUNS} interleaved runs each)`,
      columns: ["how", "session median ms", "vs unsandboxed", "page load + screenshot median ms", "vs unsandboxed"],
      rows,
      note: "Session: start, load a loopback page, screenshot, close. Baseline: Chromium started directly (CDP over a port), same run, interleaved.",
    },
  ]
}
