import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, it } from "vitest"

const store = fileURLToPath(new URL("../../../server/src/index/vectors/lance-store.ts", import.meta.url))

// LanceDB's native code logs to the process's stderr directly: only a child process shows what a user sees.
it("stores the first vectors of a new index without LanceDB printing a warning", () => {
  const dir = mkdtempSync(join(tmpdir(), "agent-lsp-lance-quiet-"))
  try {
    const script = join(dir, "first-index.mts")
    writeFileSync(
      script,
      `import { LanceStore } from ${JSON.stringify(store)}
const s = new LanceStore(${JSON.stringify(join(dir, "vectors"))})
await s.upsert([{ id: "a", path: "src/a.ts", startLine: 1, endLine: 3, vector: [0.1, 0.2, 0.3] }])
await s.upsert([{ id: "b", path: "src/b.ts", startLine: 1, endLine: 3, vector: [0.3, 0.2, 0.1] }])
console.log(JSON.stringify((await s.search([0.1, 0.2, 0.3], 5)).map((h) => h.id)))
await s.close()
`,
    )
    const run = spawnSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", timeout: 60_000 })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout.trim())).toEqual(["a", "b"])
    expect(run.stderr).toBe("")
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 90_000)
