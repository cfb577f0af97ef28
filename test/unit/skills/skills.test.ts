import { mkdir, rm, symlink, utimes, writeFile } from "node:fs/promises"
import { dirname } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { discoverSkills, readSkillBody, skillsForMode } from "../../../server/src/skills"
import { skill } from "../../../server/src/tools/skill"
import { makeToolContext } from "../../support/tool-context"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { runTool, text } from "../tools/meta/run-tool"

const made: TempWorkspace[] = []
afterEach(async () => {
  for (const ws of made.splice(0)) await ws.cleanup()
})

async function folders(workspaceFiles: Record<string, string>, homeFiles: Record<string, string> = {}) {
  const ws = await tempWorkspace(workspaceFiles)
  const home = await tempWorkspace(homeFiles)
  made.push(ws, home)
  return { ws, home }
}

function skillMd(name: string, description: string, extra = "", body = "\n# Steps\n\n1. Do the thing.\n") {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`
}

describe("skill discovery", () => {
  it("finds skills in .roo/skills, .agents/skills and the home folder's, workspace overriding global by name", async () => {
    const { ws, home } = await folders(
      {
        ".roo/skills/deploy/SKILL.md": skillMd("deploy", "Deploy the app (workspace)"),
        ".agents/skills/lint-fix/SKILL.md": skillMd("lint-fix", "Fix lint errors"),
      },
      {
        ".roo/skills/deploy/SKILL.md": skillMd("deploy", "Deploy the app (global)"),
        ".agents/skills/write-docs/SKILL.md": skillMd("write-docs", "Write docs"),
      },
    )
    const all = await discoverSkills({ workspaceFolders: [ws.root], home: home.root })
    const code = skillsForMode(all, "code")
    expect(code.map((s) => [s.name, s.description, s.location])).toEqual([
      ["deploy", "Deploy the app (workspace)", ".roo/skills/deploy/SKILL.md"],
      ["lint-fix", "Fix lint errors", ".agents/skills/lint-fix/SKILL.md"],
      ["write-docs", "Write docs", "~/.agents/skills/write-docs/SKILL.md"],
    ])
  })

  it("shows skills-<mode> folders and modeSlugs only to their modes, and a mode skill beats a generic one", async () => {
    const { ws, home } = await folders({
      ".roo/skills/review/SKILL.md": skillMd("review", "Generic review"),
      ".roo/skills-architect/review/SKILL.md": skillMd("review", "Architect review"),
      ".roo/skills-architect/diagram/SKILL.md": skillMd("diagram", "Draw diagrams"),
      ".roo/skills/debug-only/SKILL.md": skillMd("debug-only", "Only in debug", "modeSlugs: [debug]\n"),
    })
    const all = await discoverSkills({ workspaceFolders: [ws.root], home: home.root })
    expect(skillsForMode(all, "code").map((s) => `${s.name}: ${s.description}`)).toEqual(["review: Generic review"])
    expect(skillsForMode(all, "architect").map((s) => `${s.name}: ${s.description}`)).toEqual([
      "diagram: Draw diagrams",
      "review: Architect review",
    ])
    expect(skillsForMode(all, "debug").map((s) => s.name)).toEqual(["debug-only", "review"])
  })

  it("skips invalid skills and logs why, once", async () => {
    const { ws, home } = await folders({
      ".roo/skills/wrong-name/SKILL.md": skillMd("other-name", "x"),
      ".roo/skills/no-description/SKILL.md": "---\nname: no-description\n---\nbody",
      ".roo/skills/bad-yaml/SKILL.md": "---\nname: [unclosed\n---\nbody",
      ".roo/skills/Upper/SKILL.md": skillMd("Upper", "x"),
      ".roo/skills/bad-modes/SKILL.md": skillMd("bad-modes", "x", "modeSlugs: code\n"),
      ".roo/skills/good/SKILL.md": skillMd("good", "Fine"),
    })
    const logs: string[] = []
    const all = await discoverSkills({ workspaceFolders: [ws.root], home: home.root, log: (m) => logs.push(m) })
    expect(all.map((s) => s.name)).toEqual(["good"])
    expect(logs.join("\n")).toContain('its name "other-name" differs from its folder name "wrong-name"')
    expect(logs.join("\n")).toContain('no-description/SKILL.md skipped: its frontmatter has no "description"')
    expect(logs.join("\n")).toContain("bad-yaml/SKILL.md skipped: the frontmatter is not valid YAML")
    expect(logs.join("\n")).toContain('its name "Upper" must be 1-64 lowercase letters')
    expect(logs.join("\n")).toContain('"modeSlugs" must be a list of mode slugs')
    await discoverSkills({ workspaceFolders: [ws.root], home: home.root, log: (m) => logs.push(m) })
    expect(logs).toHaveLength(5)
  })

  it("refuses a workspace skill whose SKILL.md is a symlink out of the workspace", async () => {
    const { ws, home } = await folders({}, { "secret/SKILL.md": skillMd("leak", "Leaks a file") })
    await mkdir(ws.path(".roo/skills/leak"), { recursive: true })
    await symlink(home.path("secret/SKILL.md"), ws.path(".roo/skills/leak/SKILL.md"))
    const logs: string[] = []
    expect(await discoverSkills({ workspaceFolders: [ws.root], home: home.root, log: (m) => logs.push(m) })).toEqual([])
    expect(logs[0]).toContain("outside the workspace")
  })

  it("does not read a workspace SKILL.md swapped for a symlink out of the workspace after discovery found it", async () => {
    const { ws, home } = await folders(
      { ".roo/skills/swap/SKILL.md": skillMd("swap", "Harmless") },
      { "secret.md": "AWS_SECRET_ACCESS_KEY=abc123\n" },
    )
    const [found] = await discoverSkills({ workspaceFolders: [ws.root], home: home.root })
    expect(found?.name).toBe("swap")
    // Between discovery and reading (a command the sandbox let run, or another process), the file becomes a link.
    await rm(ws.path(".roo/skills/swap/SKILL.md"))
    await symlink(home.path("secret.md"), ws.path(".roo/skills/swap/SKILL.md"))
    expect(await readSkillBody(found!)).toBeUndefined()
  })

  it("sees a changed SKILL.md on the next discovery (no restart)", async () => {
    const { ws, home } = await folders({ ".roo/skills/deploy/SKILL.md": skillMd("deploy", "Old description") })
    const first = await discoverSkills({ workspaceFolders: [ws.root], home: home.root })
    expect(first[0]!.description).toBe("Old description")
    const path = ws.path(".roo/skills/deploy/SKILL.md")
    await writeFile(path, skillMd("deploy", "New description, longer"))
    const later = new Date(Date.now() + 5000)
    await utimes(path, later, later)
    const second = await discoverSkills({ workspaceFolders: [ws.root], home: home.root })
    expect(second[0]!.description).toBe("New description, longer")
    await writeFile(ws.path(".roo/skills/notes.txt"), "a stray file beside the skill folders is ignored")
    await mkdir(dirname(ws.path(".roo/skills/added/SKILL.md")), { recursive: true })
    await writeFile(ws.path(".roo/skills/added/SKILL.md"), skillMd("added", "Just added"))
    expect((await discoverSkills({ workspaceFolders: [ws.root], home: home.root })).map((s) => s.name)).toEqual(["added", "deploy"])
  })

  it("returns the body after the frontmatter verbatim", async () => {
    const body = "\n# Deploy\n\n  keep   spacing\n\n```sh\nnpm run deploy\n```\n"
    const { ws, home } = await folders({ ".roo/skills/deploy/SKILL.md": skillMd("deploy", "Deploy", "", body) })
    const [found] = await discoverSkills({ workspaceFolders: [ws.root], home: home.root })
    expect(await readSkillBody(found!)).toBe(body)
  })
})

describe("the skill tool", () => {
  it("returns the skill's body verbatim with the args", async () => {
    const body = "\n# Deploy\n\nRun `npm run deploy -- $TARGET`.\n"
    const { ws, home } = await folders({ ".roo/skills/deploy/SKILL.md": skillMd("deploy", "Deploy", "", body) })
    const previousHome = process.env.HOME
    process.env.HOME = home.root
    try {
      const result = await runTool(skill, { skill: "deploy", args: "staging" }, makeToolContext(ws.root))
      expect(result.isError).toBe(false)
      expect(text(result)).toBe(`Skill "deploy" (.roo/skills/deploy/SKILL.md). Follow these instructions:\n${body}\n\nArguments: staging`)
    } finally {
      process.env.HOME = previousHome
    }
  })

  it("answers an unknown name with every skill of the mode", async () => {
    const { ws, home } = await folders({
      ".roo/skills/deploy/SKILL.md": skillMd("deploy", "Deploy the app"),
      ".roo/skills-architect/diagram/SKILL.md": skillMd("diagram", "Draw diagrams"),
    })
    const previousHome = process.env.HOME
    process.env.HOME = home.root
    try {
      const result = await runTool(skill, { skill: "deploi" }, makeToolContext(ws.root, { mode: "code" }))
      expect(result.isError).toBe(true)
      expect(text(result)).toBe(
        'There is no skill "deploi" in code mode. The skills available in code mode: deploy (Deploy the app). Call skill again with one of these names.',
      )
    } finally {
      process.env.HOME = previousHome
    }
  })
})
