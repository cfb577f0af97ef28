import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * Node 22 and later give some built-in modules lazy getters that load a lot on first read (node:http's
 * WebSocket/EventSource load undici, node:tls's rootCertificates parses every root certificate). Importing
 * such a module as an ES module reads every export at once: for node:http that was +0.6 s and +17 MB at the
 * server's start-up on Node 24 (npm run bench -- cold-start). The server takes them with require() instead.
 */
const EAGER_ON_IMPORT = ["http", "https", "tls"]

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })
}

const root = join(import.meta.dirname, "..", "..", "..")
// One import statement: it may span lines, but never runs into the next `import` (files here have no semicolons).
const valueImport = new RegExp(`^import\\s+(?!type\\b)(?:(?!^import\\b)[^;])*?from\\s+"(?:node:)?(${EAGER_ON_IMPORT.join("|")})"`, "gm")

describe("built-in modules that Node 22+ loads eagerly when imported as ES modules", () => {
  it("are never imported as values by the server (require() reads only what is used)", () => {
    const offenders = sources(join(root, "server", "src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(valueImport)].map((m) => `${relative(root, file)}: ${m[0]}`),
    )
    expect(offenders).toEqual([])
  })

  it("are taken, node:http, only through config/node-http.ts (its one require())", () => {
    // require("node:http") or import("node:http"): a dynamic import would evaluate every export too.
    const http = /\(\s*["'](?:node:)?http["']\s*\)/
    const requiring = sources(join(root, "server", "src"))
      .filter((file) => http.test(readFileSync(file, "utf8")))
      .map((file) => relative(root, file))
    expect(requiring).toEqual([join("server", "src", "config", "node-http.ts")])
  })

  it("the check sees such an import", () => {
    const line = 'import { createServer } from "node:http"\nimport type { IncomingMessage } from "node:http"\n'
    expect([...line.matchAll(valueImport)].map((m) => m[0])).toEqual(['import { createServer } from "node:http"'])
  })
})
