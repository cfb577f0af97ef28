import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import type { HooksConfig, Settings } from "../../../server/src/config/schema"
import { newTurnState } from "../../../server/src/pipeline/types"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"
import { harness, runs, text } from "./fixtures"

let dir: string
beforeAll(async () => {
  await loadShellParser()
})
afterEach(async () => {
  runs.length = 0
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** A pipeline over the fake tools whose PreToolUse / PostToolUse hooks are real shell commands, in a real folder. */
async function withHooks(hooks: HooksConfig, tweak?: (s: Settings) => void) {
  dir = await mkdtemp(join(tmpdir(), "pipeline-hooks-"))
  const h = harness({
    tweak: (s) => {
      s.hooks = hooks
      tweak?.(s)
    },
  })
  const ctx = Object.assign(h.ctx, { workspaceFolders: [dir] })
  return { ...h, ctx }
}
const json = (value: unknown) => `echo '${JSON.stringify(value)}'`
const pre = (command: string, matcher = "*"): HooksConfig => ({ PreToolUse: [{ matcher, hooks: [{ type: "command", command }] }] })

describe("hooks in the pipeline", () => {
  it("runs the call with a PreToolUse hook's updatedInput", async () => {
    const h = await withHooks(pre(json({ hookSpecificOutput: { permissionDecision: "allow", updatedInput: { path: "src/b.ts" } } })))
    const out = await h.pipeline.run(h.call("write_to_file", { path: "src/a.ts", content: "x" }), newTurnState(), h.ctx)
    expect(out.status).toBe("done")
    expect(runs).toEqual([{ tool: "write_to_file", params: { path: "src/b.ts", content: "x" }, editedText: undefined }])
    expect(h.ctx.ask.approvals).toHaveLength(0)
  })

  it("still asks before a protected file when a PreToolUse hook allows it", async () => {
    const h = await withHooks(pre(json({ hookSpecificOutput: { permissionDecision: "allow" } })))
    await h.pipeline.run(h.call("write_to_file", { path: ".git/config", content: "x" }), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals).toHaveLength(1)
    // Control: the same hook's allow does skip the question for a file that is not protected.
    await h.pipeline.run(h.call("write_to_file", { path: "src/a.ts", content: "x" }), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals).toHaveLength(1)
    expect(runs.map((r) => (r.params as { path: string }).path)).toEqual([".git/config", "src/a.ts"])
  })

  it("refuses with the hook's reason on permissionDecision deny, and runs nothing", async () => {
    const h = await withHooks(pre(json({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "frozen" } })))
    const out = await h.pipeline.run(h.call("execute_command", { command: "ls" }), newTurnState(), h.ctx)
    expect(out.status).toBe("denied")
    expect(text(out.result)).toContain("frozen")
    expect(runs).toEqual([])
    // Control: the same call without the hook runs (approved by the user's allow_once).
    const off = await withHooks({})
    expect((await off.pipeline.run(off.call("execute_command", { command: "ls" }), newTurnState(), off.ctx)).status).toBe("done")
    expect(runs.map((r) => r.tool)).toEqual(["execute_command"])
  })

  it("refuses on exit 2 with stderr as the reason, and the same call runs without the hook", async () => {
    const h = await withHooks(pre("echo 'not on Fridays' >&2; exit 2"), (s) => (s.autoApprove.write = true))
    const out = await h.pipeline.run(h.call("write_to_file", { path: "src/a.ts", content: "x" }), newTurnState(), h.ctx)
    expect(out.status).toBe("denied")
    expect(text(out.result)).toContain("not on Fridays")
    expect(runs).toEqual([])
    const off = await withHooks({}, (s) => (s.autoApprove.write = true))
    expect((await off.pipeline.run(off.call("write_to_file", { path: "src/a.ts", content: "x" }), newTurnState(), off.ctx)).status).toBe(
      "done",
    )
  })

  it("does not run hooks whose matcher names another tool", async () => {
    const h = await withHooks(pre("echo no >&2; exit 2", "execute_command"), (s) => (s.autoApprove.write = true))
    const out = await h.pipeline.run(h.call("write_to_file", { path: "src/a.ts", content: "x" }), newTurnState(), h.ctx)
    expect(out.status).toBe("done")
    // Control: the same hook, its matcher naming this tool, refuses it.
    const on = await withHooks(pre("echo no >&2; exit 2", "write_to_file"), (s) => (s.autoApprove.write = true))
    expect((await on.pipeline.run(on.call("write_to_file", { path: "src/a.ts", content: "x" }), newTurnState(), on.ctx)).status).toBe(
      "denied",
    )
  })

  it("adds PostToolUse additionalContext and exit-2 stderr to the result the model gets", async () => {
    const hooks: HooksConfig = {
      PostToolUse: [
        {
          hooks: [
            { type: "command", command: json({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "lint: clean" } }) },
            { type: "command", command: "echo 'format changed 2 lines' >&2; exit 2" },
          ],
        },
      ],
    }
    const h = await withHooks(hooks, (s) => (s.autoApprove.write = true))
    const out = await h.pipeline.run(h.call("write_to_file", { path: "src/a.ts", content: "x" }), newTurnState(), h.ctx)
    expect(out.status).toBe("done")
    expect(text(out.result)).toContain("lint: clean")
    expect(text(out.result)).toContain("format changed 2 lines")
  })

  it("stops the task after the call when a hook answers continue: false", async () => {
    const h = await withHooks(pre(json({ continue: false, stopReason: "end of day" })), (s) => (s.autoApprove.write = true))
    const out = await h.pipeline.run(h.call("write_to_file", { path: "src/a.ts", content: "x" }), newTurnState(), h.ctx)
    expect(out.stopTask).toBe(true)
    expect(JSON.stringify(h.ctx.updates)).toContain("end of day")
  })
})
