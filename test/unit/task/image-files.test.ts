import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { TaskStore } from "../../../server/src/task/store"

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function store() {
  const dir = mkdtempSync(join(tmpdir(), "agent-lsp-images-"))
  dirs.push(dir)
  return new TaskStore(dir)
}

const at = "2026-01-01T00:00:00.000Z"
const big = Buffer.alloc(30_000, 9).toString("base64")
const small = Buffer.from("tiny").toString("base64")

describe("images in task files", () => {
  it("keeps a large image in a file beside the task and puts it back on load; a small one stays inline", () => {
    const tasks = store()
    tasks.append("/w", "t1", { type: "created", at, taskId: "t1", title: "x", mode: "code", folder: "/w" })
    tasks.append("/w", "t1", {
      type: "message",
      at,
      message: {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", mediaType: "image/png", base64: big },
          { type: "image", mediaType: "image/gif", base64: small },
        ],
      },
    })
    const line = readFileSync(tasks.filePath("/w", "t1"), "utf8")
    expect(line).not.toContain(big.slice(0, 100))
    expect(line).toContain(small)
    expect(readdirSync(tasks.filePath("/w", "t1").replace(/\.jsonl$/, ".files"))).toHaveLength(1)
    const loaded = tasks.loadTask("/w", "t1")!
    const message = loaded.records[1]
    expect(message?.type === "message" && message.message.content).toEqual([
      { type: "text", text: "look" },
      { type: "image", mediaType: "image/png", base64: big },
      { type: "image", mediaType: "image/gif", base64: small },
    ])
  })

  it("a reference to a missing file or to a path becomes a note, never a read outside the task's folder", () => {
    const tasks = store()
    const path = tasks.filePath("/w", "t2")
    tasks.append("/w", "t2", { type: "created", at, taskId: "t2", title: "x", mode: "code", folder: "/w" })
    const refs = [
      { type: "image", mediaType: "image/png", stored: "0123456789abcdef0123456789abcdef.png" },
      { type: "image", mediaType: "image/png", stored: "../../../../etc/passwd" },
    ]
    writeFileSync(
      path,
      `${readFileSync(path, "utf8")}${JSON.stringify({ type: "message", at, message: { role: "user", content: refs } })}\n`,
    )
    const message = tasks.loadTask("/w", "t2")!.records[1]
    const content = message?.type === "message" ? message.message.content : []
    expect(content).toHaveLength(2)
    for (const block of content) expect(block).toEqual({ type: "text", text: expect.stringContaining("stored copy is gone") })
  })
})
