import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { loadCustomInstructions } from "../../../server/src/prompt/custom-instructions"
import { loadPromptSkills } from "../../../server/src/prompt/skills-section"
import { WatchedCache } from "../../../server/src/skills/watched-cache"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

let ws: TempWorkspace | undefined
afterEach(async () => ws?.cleanup())

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`

describe("WatchedCache", () => {
  it("reads once while nothing changes in the watched folders, and again after a file in one changes", async () => {
    ws = await tempWorkspace({ "notes/a.md": "one" })
    const cache = new WatchedCache<number>()
    let loads = 0
    const get = () =>
      cache.get("k", async (watchDir) => {
        watchDir(join(ws!.root, "notes"))
        return ++loads
      })
    expect(await get()).toBe(1)
    expect(await get()).toBe(1)
    writeFileSync(join(ws.root, "notes/a.md"), "two")
    expect(await get()).toBe(2)
    expect(await get()).toBe(2)
    cache.clear()
  })

  it("notices a watched folder that did not exist being created, through its nearest existing parent", async () => {
    ws = await tempWorkspace({ "README.md": "x" })
    const cache = new WatchedCache<number>()
    let loads = 0
    const get = () =>
      cache.get("k", async (watchDir) => {
        watchDir(join(ws!.root, ".roo/rules"))
        return ++loads
      })
    expect(await get()).toBe(1)
    expect(await get()).toBe(1)
    mkdirSync(join(ws.root, ".roo"))
    expect(await get()).toBe(2)
    cache.clear()
  })

  it("keeps nothing when a load fails, so the next call reads again", async () => {
    ws = await tempWorkspace({ "README.md": "x" })
    const cache = new WatchedCache<number>()
    let loads = 0
    const get = () =>
      cache.get("k", async (watchDir) => {
        watchDir(ws!.root)
        if (++loads === 1) throw new Error("first read failed")
        return loads
      })
    await expect(get()).rejects.toThrow("first read failed")
    expect(await get()).toBe(2)
    cache.clear()
  })
})

describe("rules and skills read before each request", () => {
  it("re-reads AGENTS.md and the mode's rules after they change, and sees a rule file added later", async () => {
    ws = await tempWorkspace({ "AGENTS.md": "Use pnpm.", ".roo/rules/a.md": "Rule A." })
    expect((await loadCustomInstructions(ws.root, "code", "")).agentsMd).toBe("Use pnpm.")
    writeFileSync(join(ws.root, "AGENTS.md"), "Use npm.")
    expect((await loadCustomInstructions(ws.root, "code", "")).agentsMd).toBe("Use npm.")
    writeFileSync(join(ws.root, ".roo/rules/a.md"), "Rule A, edited.")
    expect((await loadCustomInstructions(ws.root, "code", "")).rules).toEqual([{ path: ".roo/rules/a.md", text: "Rule A, edited." }])
    mkdirSync(join(ws.root, ".roo/rules-code"))
    writeFileSync(join(ws.root, ".roo/rules-code/b.md"), "Code rule.")
    expect((await loadCustomInstructions(ws.root, "code", "")).rules.map((r) => r.text)).toEqual(["Rule A, edited.", "Code rule."])
    rmSync(join(ws.root, "AGENTS.md"))
    expect((await loadCustomInstructions(ws.root, "code", "")).agentsMd).toBeUndefined()
  })

  it("sees a skill added, its description edited, and a skill folder renamed away after an earlier read", async () => {
    ws = await tempWorkspace({ "README.md": "x" })
    const names = async () => (await loadPromptSkills([ws!.root], "code")).map((s) => `${s.name}: ${s.description}`)
    expect(await names()).toEqual([])
    mkdirSync(join(ws.root, ".roo/skills/deploy"), { recursive: true })
    writeFileSync(join(ws.root, ".roo/skills/deploy/SKILL.md"), skill("deploy", "Ships it."))
    expect(await names()).toEqual(["deploy: Ships it."])
    writeFileSync(join(ws.root, ".roo/skills/deploy/SKILL.md"), skill("deploy", "Ships it carefully."))
    expect(await names()).toEqual(["deploy: Ships it carefully."])
    renameSync(join(ws.root, ".roo/skills/deploy"), join(ws.root, ".roo/skills/.gone"))
    expect(await names()).toEqual([])
  })
})
