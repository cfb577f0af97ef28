import { describe, expect, it } from "vitest"
import { BUILTIN_MODES } from "../../../server/src/modes/builtin"
import { buildSystemPrompt, estimateTokens } from "../../../server/src/prompt/builder"
import { promptContext } from "./prompt-context"

describe("system prompt", () => {
  for (const mode of BUILTIN_MODES) {
    it(`matches the committed snapshot for the ${mode.slug} mode`, async () => {
      const prompt = buildSystemPrompt(promptContext(mode))
      await expect(prompt).toMatchFileSnapshot(`./__snapshots__/${mode.slug}.md`)
    })
  }

  it("stays lean: every built-in mode's prompt is under 1,500 estimated tokens", () => {
    for (const mode of BUILTIN_MODES) expect(estimateTokens(buildSystemPrompt(promptContext(mode)))).toBeLessThan(1500)
  })

  it("puts the sections in the documented order, starting with the mode's role definition", () => {
    const code = BUILTIN_MODES.find((m) => m.slug === "code")!
    const prompt = buildSystemPrompt(promptContext(code))
    expect(prompt.startsWith(code.roleDefinition)).toBe(true)
    const order = [
      "MARKDOWN RULES",
      "TOOL USE",
      "CAPABILITIES",
      "MODES",
      "RULES",
      "SYSTEM INFORMATION",
      "OBJECTIVE",
      "USER'S CUSTOM INSTRUCTIONS",
    ]
    const positions = order.map((heading) => prompt.indexOf(`\n${heading}\n`))
    expect(positions.every((p) => p > 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
  })

  it("lists every mode with its whenToUse and names the current one", () => {
    const ask = BUILTIN_MODES.find((m) => m.slug === "ask")!
    const prompt = buildSystemPrompt(promptContext(ask))
    expect(prompt).toContain('You are in mode "ask"')
    for (const mode of BUILTIN_MODES) expect(prompt).toContain(`- "${mode.slug}" (${mode.name}): ${mode.whenToUse}`)
  })

  it("does not mention running commands in a mode without the command group", () => {
    const ask = BUILTIN_MODES.find((m) => m.slug === "ask")!
    expect(buildSystemPrompt(promptContext(ask))).not.toContain("You can run commands")
  })

  it("lists the mode's skills (name, description, location, never the body) between MODES and RULES", async () => {
    const code = BUILTIN_MODES.find((m) => m.slug === "code")!
    const prompt = buildSystemPrompt({
      ...promptContext(code),
      skills: [
        { name: "deploy", description: "Deploy the app to staging or production", location: ".roo/skills/deploy/SKILL.md" },
        { name: "write-docs", description: "Write user documentation in docs/", location: "~/.roo/skills/write-docs/SKILL.md" },
      ],
    })
    await expect(prompt).toMatchFileSnapshot("./__snapshots__/code-with-skills.md")
    expect(prompt.indexOf("\nMODES\n")).toBeLessThan(prompt.indexOf("\nAVAILABLE SKILLS\n"))
    expect(prompt.indexOf("\nAVAILABLE SKILLS\n")).toBeLessThan(prompt.indexOf("\nRULES\n"))
  })

  it("has no AVAILABLE SKILLS section without skills, or without the skill tool", () => {
    const code = BUILTIN_MODES.find((m) => m.slug === "code")!
    expect(buildSystemPrompt(promptContext(code))).not.toContain("AVAILABLE SKILLS")
    const skills = [{ name: "deploy", description: "Deploy", location: ".roo/skills/deploy/SKILL.md" }]
    const withoutTool = { ...promptContext(code), skills, toolNames: promptContext(code).toolNames.filter((n) => n !== "skill") }
    expect(buildSystemPrompt(withoutTool)).not.toContain("AVAILABLE SKILLS")
  })

  it("does not repeat what the offered tools' own descriptions say (browser, how-tos, when to ask, how to finish)", () => {
    const code = BUILTIN_MODES.find((m) => m.slug === "code")!
    const all = { ...promptContext(code), toolNames: [...promptContext(code).toolNames, "browser_action", "fetch_instructions"] }
    const prompt = buildSystemPrompt(all)
    for (const repeated of ["browser_action", "fetch_instructions", "ask_followup_question", "2-4", "offer of more help"])
      expect(prompt, repeated).not.toContain(repeated)
    expect(prompt).toContain("Each command runs in a fresh /bin/bash")
  })

  it("never inlines tool schemas: those go in the API tools field", () => {
    const prompt = buildSystemPrompt(promptContext(BUILTIN_MODES[0]!))
    expect(prompt).not.toContain('"type": "object"')
    expect(prompt).not.toContain("<read_file>")
  })
})
