import { afterEach, describe, expect, it } from "vitest"
import { BUILTIN_MODES } from "../../../server/src/modes/builtin"
import { buildSystemPrompt } from "../../../server/src/prompt/builder"
import { loadCustomInstructions } from "../../../server/src/prompt/custom-instructions"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { promptContext } from "./prompt-context"

let ws: TempWorkspace | undefined
afterEach(async () => ws?.cleanup())

describe("custom instructions", () => {
  it("adds settings, the mode's instructions, AGENTS.md, .roo/rules and .roo/rules-<mode> in that order", async () => {
    ws = await tempWorkspace({
      "AGENTS.md": "Use pnpm, never npm.",
      ".roo/rules/b-style.md": "Two-space indent.",
      ".roo/rules/a-tests.md": "Every change needs a test.",
      ".roo/rules/notes.txt": "not markdown: ignored",
      ".roo/rules-architect/plans.md": "Plans go in docs/plans/.",
      ".roo/rules-code/code-only.md": "CODE ONLY RULE",
      ".rooignore": "secrets/\n",
    })
    const architect = BUILTIN_MODES.find((m) => m.slug === "architect")!
    const custom = await loadCustomInstructions(ws.root, "architect", "Answer in British English.")
    const prompt = buildSystemPrompt({ ...promptContext(architect), custom })
    const order = [
      "Answer in British English.",
      architect.customInstructions!.split("\n")[0]!,
      "Use pnpm, never npm.",
      "Rules from .roo/rules/a-tests.md:\nEvery change needs a test.",
      "Rules from .roo/rules/b-style.md:\nTwo-space indent.",
      "Rules from .roo/rules-architect/plans.md:\nPlans go in docs/plans/.",
      "Paths matched by .rooignore are hidden from you",
    ]
    const positions = order.map((text) => prompt.indexOf(text))
    expect(positions.every((p) => p > 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(prompt).not.toContain("CODE ONLY RULE")
    expect(prompt).not.toContain("not markdown")
  })

  it("works without any instruction files and says nothing about .rooignore then", async () => {
    ws = await tempWorkspace({})
    const custom = await loadCustomInstructions(ws.root, "code", "")
    expect(custom).toEqual({ settings: "", mode: undefined, agentsMd: undefined, rules: [], hasRooIgnore: false })
    expect(buildSystemPrompt({ ...promptContext(BUILTIN_MODES[0]!), custom })).not.toContain(".rooignore are hidden")
  })
})
