import { describe, expect, it } from "vitest"
import { z } from "zod"
import { newTurnState, type DestructiveCallInfo } from "../../../server/src/pipeline/types"
import { defineTool, errorResult } from "../../../server/src/tools/tool"
import { FAKE_TOOLS, harness, runs, text } from "./fixtures"

const thrower = (stage: "prepare" | "run") =>
  defineTool({
    name: "list_files",
    group: "read",
    params: z.object({ path: z.string() }),
    description: "",
    available: () => true,
    async prepare() {
      if (stage === "prepare") throw new Error("EACCES: permission denied, scandir 'secret'")
      return {
        preview: { subject: { kind: "none" }, title: "", detail: "" },
        run: async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'length')")
        },
      }
    },
  })

describe("turn rules", () => {
  it("runs nothing after new_task in the same turn", async () => {
    const h = harness({ tweak: (s) => (s.autoApprove.subtasks = true) })
    const turn = newTurnState()
    expect((await h.pipeline.run(h.call("new_task", { mode: "code", message: "do it" }), turn, h.ctx)).status).toBe("done")
    const before = runs.length
    const after = await h.pipeline.run(h.call("read_file", { path: "a" }), turn, h.ctx)
    expect(after).toMatchObject({ status: "skipped", result: { isError: true } })
    expect(text(after.result)).toBe(
      "read_file was not run: new_task must be the last tool call of a message, and calls after it are not run. Call read_file again in a later message if it is still needed.",
    )
    expect(runs.length).toBe(before)
  })

  it("refuses attempt_completion after a call of the same turn failed, naming it", async () => {
    const h = harness()
    const turn = newTurnState()
    await h.pipeline.run(h.call("read_file", { wrong: 1 }), turn, h.ctx)
    const out = await h.pipeline.run(h.call("attempt_completion", { result: "all done" }), turn, h.ctx)
    expect(out.status).toBe("error")
    expect(text(out.result)).toMatch(
      /^attempt_completion was not run: a tool call earlier in this message failed \(read_file: Invalid arguments for read_file: path: missing/,
    )
    const nextTurn = await h.pipeline.run(h.call("attempt_completion", { result: "all done" }), newTurnState(), h.ctx)
    expect(nextTurn.status).toBe("done")
  })

  it("turns a throw in prepare into an error result naming the tool and the stage", async () => {
    const h = harness({ tools: [thrower("prepare")] })
    const out = await h.pipeline.run(h.call("list_files", { path: "." }), newTurnState(), h.ctx)
    expect(out.status).toBe("error")
    expect(text(out.result)).toBe(
      "list_files failed while preparing the call: EACCES: permission denied, scandir 'secret'. This is an error inside the tool, not in your arguments; try again or use another approach.",
    )
  })

  it("turns a throw in run into an error result naming the tool and the stage", async () => {
    const h = harness({ tools: [thrower("run")] })
    const out = await h.pipeline.run(h.call("list_files", { path: "." }), newTurnState(), h.ctx)
    expect(text(out.result)).toBe(
      "list_files failed while running: Cannot read properties of undefined (reading 'length'). This is an error inside the tool, not in your arguments; try again or use another approach.",
    )
    expect(h.ctx.updates.at(-1)).toEqual({
      kind: "toolResult",
      callId: "call_1",
      tool: "list_files",
      isError: true,
      summary: expect.stringContaining("list_files failed while running"),
    })
  })

  it("calls beforeDestructive after approval and before edit tools, execute_command and new_task, not reads", async () => {
    const seen: DestructiveCallInfo[] = []
    const h = harness({
      tweak: (s) => ((s.autoApprove.write = true), (s.autoApprove.subtasks = true), (s.terminal.allow = ["ls"])),
      beforeDestructive: async (_call, _ctx, info) => {
        seen.push(info)
      },
    })
    for (const [name, args] of [
      ["read_file", { path: "a" }],
      ["write_to_file", { path: "a", content: "x" }],
      ["execute_command", { command: "ls" }],
      ["new_task", { mode: "code", message: "m" }],
    ] as const) {
      await h.pipeline.run(h.call(name, args), newTurnState(), h.ctx)
    }
    expect(seen.map((s) => s.tool)).toEqual(["write_to_file", "execute_command", "new_task"])
    expect(seen[0]!.params).toEqual({ path: "a", content: "x" })
  })

  it("does not call beforeDestructive for a rejected call", async () => {
    let called = false
    const h = harness({ beforeDestructive: async () => void (called = true) })
    h.ctx.ask.rejectAll()
    await h.pipeline.run(h.call("write_to_file", { path: "a", content: "x" }), newTurnState(), h.ctx)
    expect(called).toBe(false)
  })

  it("still runs the call when the checkpoint hook throws, and reports the failure", async () => {
    const h = harness({
      tweak: (s) => (s.autoApprove.write = true),
      beforeDestructive: async () => {
        throw new Error("git not found")
      },
    })
    const out = await h.pipeline.run(h.call("write_to_file", { path: "a", content: "x" }), newTurnState(), h.ctx)
    expect(out.status).toBe("done")
    expect(h.ctx.updates).toContainEqual({ kind: "error", message: "Could not save a checkpoint before write_to_file: git not found" })
  })

  it("gives every call exactly one final toolCall status and one toolResult", async () => {
    const h = harness()
    h.ctx.ask.rejectAll()
    const turn = newTurnState()
    await h.pipeline.run(h.call("write_to_file", { path: "a", content: "x" }, "a"), turn, h.ctx)
    await h.pipeline.run(h.call("read_file", { path: "a" }, "b"), turn, h.ctx)
    const finals = h.ctx.updates.filter(
      (u) => u.kind === "toolResult" || (u.kind === "toolCall" && ["done", "error", "denied", "skipped"].includes(u.status)),
    )
    expect(finals.map((u) => `${u.kind}:${(u as { callId: string }).callId}`)).toEqual([
      "toolCall:a",
      "toolResult:a",
      "toolCall:b",
      "toolResult:b",
    ])
  })

  it("passes a failed result through with is_error", async () => {
    const failing = defineTool({
      name: "list_files",
      group: "read",
      params: z.object({}),
      description: "",
      available: () => true,
      prepare: async () => ({ result: errorResult("No such folder: x. Use list_files on . to see what exists.") }),
    })
    const h = harness({ tools: [...FAKE_TOOLS.filter((t) => t.name !== "list_files"), failing] })
    const out = await h.pipeline.run(h.call("list_files", {}), newTurnState(), h.ctx)
    expect(out).toMatchObject({ status: "error", result: { isError: true } })
  })
})
