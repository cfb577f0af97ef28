import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A loopback HTTP server with a page for the browser tests. Element positions are fixed (absolute
 * positioning, margin 0) so tests can click by coordinate: the button's centre is (150, 80), the input's
 * (200, 165). The page logs while it loads, on click, on Enter and on scroll.
 */
export const PAGE_HTML = `<!doctype html>
<html><head><title>Test page</title>
<style>
  body { margin: 0; font: 16px sans-serif; background: #fff; }
  #btn { position: absolute; left: 50px; top: 50px; width: 200px; height: 60px; }
  #name { position: absolute; left: 50px; top: 150px; width: 300px; height: 30px; }
  #tall { height: 3000px; }
</style>
<script>console.log("loading the page")</script>
</head><body>
<button id="btn" onclick="console.log('button clicked'); this.textContent = 'Clicked!'">Click me</button>
<input id="name" onkeydown="if (event.key === 'Enter') console.log('entered: ' + this.value)">
<div id="tall"></div>
<script>
  addEventListener("scroll", () => console.log("scrolled to " + Math.round(scrollY)))
  addEventListener("load", () => console.warn("loaded"))
</script>
</body></html>`

const HANG_HTML = `<!doctype html><html><body style="margin:0">
<button style="position:absolute;left:0;top:0;width:200px;height:100px" onclick="for (;;) {}">Hang</button></body></html>`

const ERROR_HTML = `<!doctype html><html><body><p>broken</p><script>throw new Error("boom from the page")</script></body></html>`

export interface TestPage {
  /** http://127.0.0.1:<port>/ */
  url: string
  /** A page whose script throws an uncaught error. */
  errorUrl: string
  /** A page whose button (centre (100, 50)) starts an endless script loop. */
  hangUrl: string
  close(): Promise<void>
}

export async function serveTestPage(): Promise<TestPage> {
  const server: Server = createServer((req, res) => {
    const body = req.url === "/error" ? ERROR_HTML : req.url === "/hang" ? HANG_HTML : PAGE_HTML
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    errorUrl: `http://127.0.0.1:${port}/error`,
    hangUrl: `http://127.0.0.1:${port}/hang`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** Width and height from a PNG's IHDR chunk; throws when the bytes are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } {
  const magic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  if (!png.subarray(0, 8).equals(magic) || png.toString("ascii", 12, 16) !== "IHDR") throw new Error("not a PNG")
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}
