// `npm start`: builds the server when the bundle is missing or older than the sources, tells a person at a
// terminal how to hook up each editor (on stderr: stdout is the protocol), then serves LSP on stdio.
// Editors do not run this: they start `agent-lsp --stdio` (or `node dist/agent-lsp.mjs --stdio`).
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import { startHints } from "./start-hints.mjs"

const root = resolve(import.meta.dirname, "..")
const entry = join(root, "dist", "agent-lsp.mjs")

function newestSource(dir) {
  let newest = 0
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name)
    newest = Math.max(newest, name.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

if (
  !existsSync(entry) ||
  statSync(entry).mtimeMs < Math.max(newestSource(join(root, "server", "src")), newestSource(join(root, "protocol", "src")))
) {
  process.stderr.write("agent-lsp: building the server (npm run build)...\n")
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: ["ignore", process.stderr, process.stderr] })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

if (process.stdin.isTTY) process.stderr.write(startHints(root))
const result = spawnSync(process.execPath, [entry, "--stdio"], { stdio: "inherit" })
process.exit(result.status ?? 1)
