import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { TaskStore } from "../../../server/src/task/store"

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function storeWithTask(): { store: TaskStore; stateDir: string; file: string } {
  const stateDir = mkdtempSync(join(tmpdir(), "agent-lsp-index-"))
  dirs.push(stateDir)
  const store = new TaskStore(stateDir)
  store.append("/ws", "t1", {
    type: "created",
    taskId: "t1",
    title: "Real title",
    mode: "code",
    folder: "/ws",
    at: "2026-01-01T00:00:00.000Z",
  })
  store.append("/ws", "t1", { type: "status", status: "running", at: "2026-01-01T00:00:01.000Z" })
  return { store, stateDir, file: store.filePath("/ws", "t1") }
}

const indexPath = (store: TaskStore) => join(store.folderDir("/ws"), "summaries.idx")

describe("the summary index of stored tasks", () => {
  it("is written on the first scan and used by the next one while the task file keeps its size", () => {
    const { store, stateDir, file } = storeWithTask()
    expect(new TaskStore(stateDir).scanFolder("/ws").get("t1")!.summary.title).toBe("Real title")
    // A summary that only the index has proves the next scan took it from there, not from the file.
    const size = statSync(file).size
    appendFileSync(
      indexPath(store),
      `${JSON.stringify({
        taskId: "t1",
        size,
        folder: "/ws",
        summary: { taskId: "t1", title: "From the index", mode: "code", status: "running", createdAt: "x", updatedAt: "y" },
      })}\n`,
    )
    expect(new TaskStore(stateDir).scanFolder("/ws").get("t1")!.summary.title).toBe("From the index")
  })

  it("reads the task file again once it grew, and skips a torn index line", () => {
    const { store, stateDir } = storeWithTask()
    new TaskStore(stateDir).scanFolder("/ws")
    store.append("/ws", "t1", { type: "status", status: "completed", at: "2026-01-01T00:00:09.000Z" })
    appendFileSync(indexPath(store), '{"taskId":"t1","si')
    const task = new TaskStore(stateDir).scanFolder("/ws").get("t1")!
    expect(task.summary).toMatchObject({ status: "completed", updatedAt: "2026-01-01T00:00:09.000Z" })
  })

  it("remembers a task's summary as of its last record", () => {
    const { store, stateDir } = storeWithTask()
    store.remember("t1", {
      folder: "/ws",
      summary: { taskId: "t1", title: "Remembered", mode: "code", status: "running", createdAt: "a", updatedAt: "b" },
    })
    expect(readFileSync(indexPath(store), "utf8")).toContain("Remembered")
    expect(new TaskStore(stateDir).scanFolder("/ws").get("t1")!.summary.title).toBe("Remembered")
  })
})
