import { describe, expect, it } from "vitest"
import { environmentDetails, newEnvironmentMemory, type EnvironmentPort } from "../../../server/src/task/environment"
import { transcriptOf } from "../../../server/src/task/transcript"
import { TaskState } from "../../../server/src/task/task-state"
import { tempWorkspace } from "../../support/temp-workspace"

function port(state: { open: string[]; active?: string; selection?: [number, number]; edits: string[] }): EnvironmentPort {
  return {
    openFiles: () => state.open,
    activeFile: () =>
      state.active
        ? { path: state.active, ...(state.selection ? { selection: { startLine: state.selection[0], endLine: state.selection[1] } } : {}) }
        : undefined,
    takeUserEdits: () => state.edits.splice(0),
  }
}

describe("environment details in the user turn", () => {
  it("lists the workspace (bounded, .gitignore honoured), the open buffers and the active selection on the first turn", async () => {
    const ws = await tempWorkspace({ "src/a.ts": "", "src/b.ts": "", "README.md": "", ".gitignore": "build/\n", "build/out.js": "" })
    try {
      const state = { open: [ws.path("src/a.ts")], active: ws.path("src/a.ts"), selection: [3, 5] as [number, number], edits: [] }
      const text = await environmentDetails(port(state), newEnvironmentMemory(), {
        folder: ws.root,
        workspaceFolders: [ws.root],
        firstTurn: true,
      })
      expect(text).toBe(
        "<environment>\nWorkspace files: .gitignore, README.md, src/, src/a.ts, src/b.ts\nOpen in the editor: src/a.ts\nActive file: src/a.ts (selected lines 3-5)\n</environment>",
      )
    } finally {
      await ws.cleanup()
    }
  })

  it("says nothing on a later turn when nothing changed, and only what changed otherwise", async () => {
    const state = { open: ["/ws/a.ts"], active: "/ws/a.ts", edits: [] as string[] }
    const memory = newEnvironmentMemory()
    const options = { folder: "/ws", workspaceFolders: ["/ws"], firstTurn: false }
    await environmentDetails(port(state), memory, options)
    expect(await environmentDetails(port(state), memory, options)).toBeUndefined()
    state.edits.push("/ws/a.ts", "/ws/a.ts")
    state.open = ["/ws/b.ts", "/ws/a.ts"]
    expect(await environmentDetails(port(state), memory, options)).toBe(
      "<environment>\nOpen in the editor: b.ts, a.ts\nChanged by the user since your last turn: a.ts\n</environment>",
    )
    expect(await environmentDetails(port(state), memory, options)).toBeUndefined()
  })

  it("caps the first-turn listing of a big tree", async () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 300; i++) files[`f${String(i).padStart(3, "0")}.txt`] = ""
    const ws = await tempWorkspace(files)
    try {
      const text = (await environmentDetails(undefined, newEnvironmentMemory(), {
        folder: ws.root,
        workspaceFolders: [ws.root],
        firstTurn: true,
      }))!
      expect(text).toContain("(first 60, breadth-first; list_files shows more)")
      const names = text.split("shows more): ")[1]!.split("\n")[0]!.split(", ")
      expect(names).toHaveLength(60)
    } finally {
      await ws.cleanup()
    }
  })

  it("is left out of the transcript the editor shows", () => {
    const state = new TaskState("t")
    state.apply({
      type: "message",
      at: "a",
      message: {
        role: "user",
        content: [
          { type: "text", text: "Do it" },
          { type: "text", text: "<environment>\nOpen in the editor: a.ts\n</environment>" },
        ],
      },
    })
    state.apply({
      type: "message",
      at: "b",
      message: { role: "user", content: [{ type: "text", text: "<environment>\nActive file: a.ts\n</environment>" }] },
    })
    expect(transcriptOf(state)).toEqual([{ role: "user", at: "a", text: "Do it" }])
  })
})

describe("environment details through the loop", () => {
  it("ride in the user turn when they change, while the system prompt stays byte-identical from turn to turn", async () => {
    const { makeFixture } = await import("./service-fixture")
    const state = { open: [] as string[], active: undefined as string | undefined, edits: [] as string[] }
    const fx = await makeFixture({
      files: { "a.txt": "alpha", "b.txt": "beta" },
      turns: [
        { toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] },
        { toolCalls: [{ name: "read_file", input: { path: "b.txt" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
      ],
      environment: port(state),
    })
    try {
      state.open = [fx.ws.path("a.txt")]
      const { taskId } = await fx.service.newTask({ text: "read both" })
      // While the model works on turn 1, the user edits b.txt.
      state.edits.push(fx.ws.path("b.txt"))
      await fx.status(taskId, "completed")
      const [first, second, third] = fx.model.requests
      expect(JSON.stringify(first!.messages)).toContain("Workspace files: a.txt, b.txt")
      expect(JSON.stringify(first!.messages)).toContain("Open in the editor: a.txt")
      expect(JSON.stringify(second!.messages)).toContain("Changed by the user since your last turn: b.txt")
      expect(JSON.stringify(third!.messages.at(-1))).not.toContain("<environment>")
      expect(second!.system).toBe(first!.system)
      expect(third!.system).toBe(first!.system)
      // Earlier turns are sent again byte for byte (the prompt cache can serve them).
      expect(JSON.stringify(second!.messages).startsWith(JSON.stringify(first!.messages).slice(0, -1))).toBe(true)
    } finally {
      await fx.cleanup()
    }
  })
})
