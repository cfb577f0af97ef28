import { afterEach, describe, expect, it } from "vitest"
import { readFileSync, writeFileSync } from "node:fs"
import { CheckpointRegistry } from "../../../server/src/checkpoints/registry"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

describe("CheckpointRegistry", () => {
  const cleanups: TempWorkspace[] = []
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((w) => w.cleanup()))
  })
  async function setup(enabled = true) {
    const a = await tempWorkspace({ "a.txt": "a\n" })
    const b = await tempWorkspace({ "b.txt": "b\n" })
    const state = await tempWorkspace()
    cleanups.push(a, b, state)
    const registry = new CheckpointRegistry({
      stateDir: state.root,
      folders: () => [a.root, b.root],
      settings: () => ({ checkpoints: { enabled, maxFileBytes: 1 << 20 } }),
    })
    return { a, b, registry }
  }

  it("takes one checkpoint per task turn before destructive tools, and one per user message", async () => {
    const { a, registry } = await setup()
    const first = await registry.beforeTool({ taskId: "t1", turn: 1, callId: "c1", tool: "write_to_file" })
    expect(first).toMatchObject({ label: "before write_to_file" })
    writeFileSync(a.path("a.txt"), "edited\n")
    expect(await registry.beforeTool({ taskId: "t1", turn: 1, callId: "c2", tool: "execute_command" })).toBeUndefined()
    expect(await registry.beforeTool({ taskId: "t2", turn: 1, callId: "c3", tool: "edit" })).toBeDefined()
    expect(await registry.beforeTool({ taskId: "t1", turn: 2, callId: "c4", tool: "edit" })).toMatchObject({ files: ["a.txt"] })
    expect(await registry.onUserMessage({ taskId: "t1", turn: 3 })).toMatchObject({ label: "before the user's message" })
    expect((await registry.list("t1")).map((c) => c.label)).toEqual(["before write_to_file", "before edit", "before the user's message"])
    expect(await registry.find(first!.id)).toMatchObject({ taskId: "t1", turn: 1, callId: "c1" })
  })

  it("accepts a fresh object per turn (the pipeline's TurnState) as the turn key", async () => {
    const { registry } = await setup()
    const turnOne = {}
    expect(await registry.beforeTool({ taskId: "t1", turn: turnOne, tool: "edit" })).toBeDefined()
    expect(await registry.beforeTool({ taskId: "t1", turn: turnOne, tool: "edit" })).toBeUndefined()
    const second = await registry.beforeTool({ taskId: "t1", turn: {}, callId: "c2", tool: "edit" })
    expect(await registry.find(second!.id)).toMatchObject({ turn: 2, callId: "c2" })
  })

  it("finds a checkpoint of the second folder by id for diff and restore", async () => {
    const { b, registry } = await setup()
    const checkpoint = (await registry.beforeTool({ taskId: "t1", folder: b.root, turn: 1, tool: "edit" }))!
    writeFileSync(b.path("b.txt"), "changed\n")
    expect(await registry.diff(checkpoint.id)).toContain("-b\n+changed")
    expect(await registry.restore(checkpoint.id)).toEqual([
      { path: b.path("b.txt"), relative: "b.txt", deleted: false, text: "b\n", binary: false },
    ])
    expect(readFileSync(b.path("b.txt"), "utf8")).toBe("b\n")
    await expect(registry.restore("f".repeat(40))).rejects.toThrow(/no checkpoint/)
  })

  it("warms a folder by staging it without recording a checkpoint", async () => {
    const { a, registry } = await setup()
    await registry.warm(a.root)
    expect(await registry.list("t1")).toEqual([])
    writeFileSync(a.path("a.txt"), "after warm\n")
    const checkpoint = (await registry.beforeTool({ taskId: "t1", turn: 1, tool: "edit" }))!
    writeFileSync(a.path("a.txt"), "later\n")
    await registry.restore(checkpoint.id)
    expect(readFileSync(a.path("a.txt"), "utf8")).toBe("after warm\n")
  })

  it("takes no checkpoint when checkpoints are disabled", async () => {
    const { registry } = await setup(false)
    expect(await registry.beforeTool({ taskId: "t1", turn: 1, tool: "edit" })).toBeUndefined()
    expect(await registry.list("t1")).toEqual([])
  })
})
