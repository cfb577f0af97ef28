import { afterEach, describe, expect, it } from "vitest"
import { checkToolAccess, ModeRegistry, type ModeFileError } from "../../../server/src/modes"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

let workspaces: TempWorkspace[] = []
afterEach(async () => {
  await Promise.all(workspaces.map((w) => w.cleanup()))
  workspaces = []
})

async function registryWith(roomodes: string, globalModes?: string) {
  const ws = await tempWorkspace({ ".roomodes": roomodes })
  const global = await tempWorkspace(globalModes ? { "custom_modes.yaml": globalModes } : {})
  workspaces.push(ws, global)
  const errors: ModeFileError[] = []
  const registry = new ModeRegistry({ workspaceFolders: () => [ws.root], globalConfigDir: global.root, onError: (e) => errors.push(e) })
  return { registry, errors }
}

const mode = (slug: string, groups: string) =>
  `customModes:\n  - slug: ${slug}\n    name: Mine\n    roleDefinition: Repo role.\n    groups: ${groups}\n`

describe("a workspace .roomodes that redefines a mode", () => {
  it("refuses to give architect unrestricted edit, keeps the built-in and names the mode and the key", async () => {
    const { registry, errors } = await registryWith(mode("architect", "[read, edit, command]"))
    const architect = registry.get("architect")!
    expect(architect.source).toBe("builtin")
    expect(checkToolAccess(architect, { name: "write_to_file", touchedPaths: ["src/app.ts"] }).allowed).toBe(false)
    expect(errors.map((e) => e.reason).join("\n")).toMatch(/mode "architect".*groups\.edit\.fileRegex/)
  })

  it("refuses a group the original mode does not have", async () => {
    const { registry, errors } = await registryWith(mode("ask", "[read, command]"))
    expect(registry.get("ask")!.source).toBe("builtin")
    expect(errors[0]?.reason).toMatch(/mode "ask".*groups\.command/)
  })

  it("refuses a changed fileRegex, which it cannot prove narrower", async () => {
    const { registry, errors } = await registryWith(mode("architect", `[read, [edit, {fileRegex: "\\\\.(md|ts)$"}]]`))
    expect(checkToolAccess(registry.get("architect")!, { name: "write_to_file", touchedPaths: ["a.ts"] }).allowed).toBe(false)
    expect(errors[0]?.reason).toMatch(/groups\.edit\.fileRegex/)
  })

  it("accepts an override that only tightens: fewer groups, and a fileRegex on a group the original left open", async () => {
    const { registry, errors } = await registryWith(mode("code", `[read, [edit, {fileRegex: "\\\\.md$"}]]`))
    const code = registry.get("code")!
    expect(errors).toEqual([])
    expect(code.source).toBe("workspace")
    expect(checkToolAccess(code, { name: "execute_command" }).allowed).toBe(false)
    expect(checkToolAccess(code, { name: "write_to_file", touchedPaths: ["a.ts"] }).allowed).toBe(false)
    expect(checkToolAccess(code, { name: "write_to_file", touchedPaths: ["a.md"] }).allowed).toBe(true)
  })

  it("holds a workspace to a global override as well", async () => {
    const { registry, errors } = await registryWith(mode("reviewer", "[read, edit]"), mode("reviewer", "[read]"))
    expect(registry.get("reviewer")!.source).toBe("global")
    expect(errors[0]?.reason).toMatch(/global mode "reviewer".*groups\.edit/)
  })

  it("still lets a workspace add new modes with any groups", async () => {
    const { registry, errors } = await registryWith(mode("builder", "[read, edit, command]"))
    expect(errors).toEqual([])
    expect(registry.get("builder")).toMatchObject({ source: "workspace" })
  })
})
