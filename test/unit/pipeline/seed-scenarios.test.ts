import { describe, expect, it } from "vitest"
import { ModeRegistry } from "../../../server/src/modes"
import { newTurnState } from "../../../server/src/pipeline/types"
import { tempWorkspace } from "../../support/temp-workspace"
import { harness, runs, text } from "./fixtures"

describe("the five seed scenarios of issue 3", () => {
  it("allows read_file in code mode without asking (reads are auto-approved)", async () => {
    const h = harness()
    const out = await h.pipeline.run(h.call("read_file", { path: "src/a.ts" }), newTurnState(), h.ctx)
    expect(out.status).toBe("done")
    expect(h.ctx.ask.approvals).toEqual([])
  })

  it("denies write_to_file on src/ in architect mode without asking the user", async () => {
    const h = harness({ mode: "architect" })
    const before = runs.length
    const out = await h.pipeline.run(h.call("write_to_file", { path: "src/app.ts", content: "x" }), newTurnState(), h.ctx)
    expect(out.result.isError).toBe(true)
    expect(text(out.result)).toContain("can only edit files matching pattern: \\.md$")
    expect(h.ctx.ask.approvals).toEqual([])
    expect(runs.length).toBe(before)
  })

  it("lets a docs-only custom mode write README.md and refuses src/index.ts", async () => {
    const ws = await tempWorkspace({
      ".roomodes": `customModes:
  - slug: docs
    name: Docs Writer
    roleDefinition: You write docs.
    groups: [read, [edit, { fileRegex: "(README|\\\\.md$)", description: "Docs only" }]]
`,
    })
    try {
      const modes = new ModeRegistry({ workspaceFolders: () => [ws.root], globalConfigDir: null })
      const h = harness({ mode: "docs", modes, tweak: (s) => (s.autoApprove.write = true) })
      const ok = await h.pipeline.run(h.call("write_to_file", { path: "README.md", content: "# hi" }), newTurnState(), h.ctx)
      expect(ok.status).toBe("done")
      const refused = await h.pipeline.run(h.call("write_to_file", { path: "src/index.ts", content: "x" }), newTurnState(), h.ctx)
      expect(text(refused.result)).toBe(
        "Tool 'write_to_file' in mode 'Docs Writer' can only edit files matching pattern: (README|\\.md$) (Docs only). Got: src/index.ts",
      )
    } finally {
      await ws.cleanup()
    }
  })

  it("answers an unknown tool with an error result naming the mode's tools", async () => {
    const h = harness({ mode: "ask" })
    const out = await h.pipeline.run(h.call("delete_everything", {}), newTurnState(), h.ctx)
    expect(text(out.result)).toBe(
      'Unknown tool "delete_everything". Tools available in ask mode: read_file, list_files, ask_followup_question, attempt_completion, switch_mode, new_task, update_todo_list.',
    )
  })

  it("refuses apply_diff when the user disabled it, and does not offer it", async () => {
    const h = harness({ tweak: (s) => (s.tools.disabled = ["apply_diff"]) })
    const out = await h.pipeline.run(h.call("apply_diff", { path: "a.ts", diff: "x" }), newTurnState(), h.ctx)
    expect(text(out.result)).toBe('Tool "apply_diff" is disabled by the user\'s settings.')
    expect(h.pipeline.toolsFor("code").map((t) => t.name)).not.toContain("apply_diff")
  })
})
