import { execFileSync } from "node:child_process"
import { closeSync, constants, mkdirSync, openSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { afterEach, describe, expect, it } from "vitest"
import { listSnapshotFiles } from "../../../server/src/checkpoints/walk"
import { DocumentStore, pathToUri } from "../../../server/src/fronts/lsp/documents"
import { loadMcpConfiguration } from "../../../server/src/mcp/config"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

/**
 * A repository can hold FIFOs named like the files the server reads. Node reads files on a pool of 4
 * threads: a read of a FIFO with no writer blocks its thread forever, and after four of them every file
 * read of the server hangs. Each reader here must refuse the FIFO (one safe reader, config/regular-file.ts).
 */
let ws: TempWorkspace | undefined
const fifos: string[] = []

afterEach(async () => {
  // Should a reader have blocked on a FIFO, a writer opening and closing it ends that read (EOF).
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK))
    } catch {
      // ENXIO: nobody reads it, which is what should happen
    }
  }
  await ws?.cleanup()
  ws = undefined
})

function fifo(path: string): string {
  execFileSync("mkfifo", [path])
  fifos.push(path)
  return path
}

/** An ordinary file read still completes: the thread pool is not taken by blocked FIFO reads. */
async function poolStillReads(regularFile: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("a plain file read did not complete: the fs thread pool is blocked")), 3000)
  })
  try {
    await Promise.race([readFile(regularFile, "utf8"), timeout])
  } finally {
    clearTimeout(timer)
  }
}

describe("FIFOs in the workspace do not block the server's file reads", () => {
  it("the LSP document store compares an opened buffer with the disk without reading a FIFO", async () => {
    ws = await tempWorkspace({ "plain.ts": "x" })
    const store = new DocumentStore()
    for (let i = 0; i < 6; i++) {
      const path = fifo(ws.path(`pipe${i}.ts`))
      store.didOpen({ textDocument: { uri: pathToUri(path), languageId: "typescript", version: 1, text: "buffer" } })
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
    await poolStillReads(ws.path("plain.ts"))
    // A regular file's comparison still works: an unsaved buffer that differs from the disk is the user's.
    store.didOpen({ textDocument: { uri: pathToUri(ws.path("plain.ts")), languageId: "typescript", version: 1, text: "changed" } })
    await expect.poll(() => store.get(ws!.path("plain.ts"))?.dirtyByUser, { timeout: 2000 }).toBe(true)
  })

  it("the checkpoint walk skips a FIFO .gitignore above and inside the folder it lists", async () => {
    ws = await tempWorkspace({ "plain.ts": "x", "sub/deep/a.ts": "a" })
    for (let i = 0; i < 5; i++) mkdirSync(ws.path(`d${i}`))
    fifo(ws.path(".gitignore"))
    fifo(ws.path("sub/.gitignore"))
    for (let i = 0; i < 5; i++) fifo(ws.path(`d${i}/.gitignore`))
    const files = await listSnapshotFiles(ws.root, {}, "sub/deep/")
    expect(files).toEqual(["sub/deep/a.ts"])
    await listSnapshotFiles(ws.root, {})
    await poolStillReads(ws.path("plain.ts"))
  })

  it("a FIFO .roo/mcp.json is reported, not read", async () => {
    ws = await tempWorkspace({ "plain.ts": "x", ".roo/keep": "" })
    fifo(ws.path(".roo/mcp.json"))
    const loaded = loadMcpConfiguration({ mcpServers: {} }, ws.root, {})
    await expect(Promise.race([loaded, new Promise((r) => setTimeout(() => r("hung"), 3000))])).rejects.toThrow(/FIFO/)
    await poolStillReads(ws.path("plain.ts"))
  })
})
