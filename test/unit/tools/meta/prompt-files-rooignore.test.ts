import { mkdirSync, symlinkSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { runSlashCommand } from "../../../../server/src/tools/run-slash-command"
import { skill } from "../../../../server/src/tools/skill"
import { makeToolContext } from "../../../support/tool-context"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { callTool, textOf } from "../read/run-tool"

// A repository can ship `.roo/commands/x.md` or `.roo/skills/x/SKILL.md` as a symbolic link to a file its
// `.rooignore` hides (`.env`, which the user fills in later): the command's or skill's text is the file's.

const SECRET = "DEPLOY_TOKEN=tok-5521-hidden"
let ws: TempWorkspace
afterEach(() => ws?.cleanup())

describe("skills and slash commands that are .rooignore'd files", () => {
  it("run_slash_command refuses a command that is a link to a .rooignore'd file, without its text", async () => {
    ws = await tempWorkspace({ ".rooignore": ".env\nsecret-notes/\n", ".env": `${SECRET}\n`, "secret-notes/plan.md": `${SECRET}\n` })
    mkdirSync(ws.path(".roo/commands"), { recursive: true })
    symlinkSync("../../.env", ws.path(".roo/commands/leak.md"))
    symlinkSync("../../secret-notes/plan.md", ws.path(".roo/commands/plan.md"))
    for (const command of ["leak", "plan"]) {
      const result = await callTool(runSlashCommand, { command }, makeToolContext(ws.root))
      expect(result.isError).toBe(true)
      expect(textOf(result)).not.toContain(SECRET)
      expect(textOf(result)).toContain(`There is no slash command "${command}"`)
    }
  })

  it("skill refuses a skill whose SKILL.md is a link to a .rooignore'd file, without its text", async () => {
    ws = await tempWorkspace({
      ".rooignore": "private/\n",
      "private/SKILL.md": `---\nname: deploy\ndescription: Deploys\n---\n${SECRET}\n`,
    })
    mkdirSync(ws.path(".roo/skills/deploy"), { recursive: true })
    symlinkSync("../../../private/SKILL.md", ws.path(".roo/skills/deploy/SKILL.md"))
    const result = await callTool(skill, { skill: "deploy" }, makeToolContext(ws.root))
    expect(result.isError).toBe(true)
    expect(textOf(result)).not.toContain(SECRET)
  })

  it("still runs a command and loads a skill that are plain files", async () => {
    ws = await tempWorkspace({
      ".rooignore": ".env\n",
      ".roo/commands/hello.md": "Say hello.\n",
      ".roo/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploys\n---\nRun the deploy.\n",
    })
    expect(textOf(await callTool(runSlashCommand, { command: "hello" }, makeToolContext(ws.root)))).toContain("Say hello.")
    expect(textOf(await callTool(skill, { skill: "deploy" }, makeToolContext(ws.root)))).toContain("Run the deploy.")
  })
})
