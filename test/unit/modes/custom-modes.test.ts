import { execFileSync } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { checkToolAccess, ModeRegistry, parseCustomModes, type ModeFileError } from "../../../server/src/modes"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

const docsYaml = `customModes:
  - slug: docs
    name: Docs Writer
    roleDefinition: You write documentation.
    groups:
      - read
      - - edit
        - fileRegex: \\.md$
          description: Markdown only
`

let workspaces: TempWorkspace[] = []
afterEach(async () => {
  await Promise.all(workspaces.map((w) => w.cleanup()))
  workspaces = []
})
async function ws(files: Record<string, string> = {}) {
  const w = await tempWorkspace(files)
  workspaces.push(w)
  return w
}

describe("parseCustomModes", () => {
  it("reads Roo-Code's YAML format with a group that has options", () => {
    const { modes, errors } = parseCustomModes(docsYaml, ".roomodes")
    expect(errors).toEqual([])
    expect(modes).toEqual([
      {
        slug: "docs",
        name: "Docs Writer",
        roleDefinition: "You write documentation.",
        groups: ["read", ["edit", { fileRegex: "\\.md$", description: "Markdown only" }]],
      },
    ])
  })

  it("reads JSON", () => {
    const json = JSON.stringify({ customModes: [{ slug: "j", name: "J", roleDefinition: "r", groups: ["read"] }] })
    expect(parseCustomModes(json, "x.json").modes.map((m) => m.slug)).toEqual(["j"])
  })

  it("falls back to JSON when the YAML parser refuses the text", () => {
    // A tab-indented JSON document is valid JSON but not valid YAML.
    const json = '{\n\t"customModes": [{"slug": "t", "name": "T", "roleDefinition": "r", "groups": []}]\n}'
    expect(parseCustomModes(json, "x").modes.map((m) => m.slug)).toEqual(["t"])
  })

  it("reports a syntax error with the file", () => {
    const { modes, errors } = parseCustomModes("customModes: [\n  {slug: ", "/w/.roomodes")
    expect(modes).toEqual([])
    expect(errors).toHaveLength(1)
    expect(errors[0]!.file).toBe("/w/.roomodes")
    expect(errors[0]!.reason).toMatch(/^not valid YAML or JSON: /)
  })

  it("skips a mode with a bad slug, a bad regex or a duplicate slug and keeps the valid ones", () => {
    const text = `customModes:
  - { slug: "bad slug", name: A, roleDefinition: r, groups: [] }
  - { slug: ok, name: Ok, roleDefinition: r, groups: [read] }
  - { slug: rx, name: Rx, roleDefinition: r, groups: [[edit, { fileRegex: "([a-" }]] }
  - { slug: ok, name: Again, roleDefinition: r, groups: [] }
  - { slug: grp, name: G, roleDefinition: r, groups: [read, teleport] }
`
    const { modes, errors } = parseCustomModes(text, ".roomodes")
    expect(modes.map((m) => m.slug)).toEqual(["ok"])
    expect(errors.map((e) => e.reason)).toEqual([
      'mode 1 ("bad slug") was skipped: slug: slug must use only letters, digits and dashes',
      expect.stringMatching(/^mode 3 \("rx"\) was skipped: groups\.0\.1\.fileRegex: fileRegex is not a valid regular expression \(/),
      'mode 4 ("ok") was skipped: the slug "ok" is already defined earlier in this file',
      'mode 5 ("grp") was skipped: groups.1: a group must be one of read, edit, command, browser, mcp, modes, or [group, { fileRegex?, description? }]',
    ])
  })

  it("refuses a fileRegex RE2 cannot run, saying why, and runs a catastrophic one in linear time", () => {
    const text = `customModes:
  - { slug: look, name: L, roleDefinition: r, groups: [[edit, { fileRegex: "^(?!secret).*\\\\.md$" }]] }
  - { slug: redos, name: R, roleDefinition: r, groups: [[edit, { fileRegex: "^(a+)+$" }]] }
`
    const { modes, errors } = parseCustomModes(text, ".roomodes")
    expect(errors.map((e) => e.reason)).toEqual([
      expect.stringMatching(/^mode 1 \("look"\) was skipped: .*lookahead, lookbehind and backreferences are not supported/),
    ])
    const redos = modes.find((m) => m.slug === "redos")!
    // With a backtracking engine this input takes minutes; RE2 answers at once.
    expect(checkToolAccess(redos, { name: "write_to_file", touchedPaths: [`${"a".repeat(40)}!`] })).toMatchObject({
      allowed: false,
      reason: "fileRestriction",
    })
    expect(checkToolAccess(redos, { name: "write_to_file", touchedPaths: ["aaaa"] })).toEqual({ allowed: true })
  })

  it("loads a file that starts with two byte-order marks", () => {
    const { modes, errors } = parseCustomModes(
      "\uFEFF\uFEFFcustomModes:\n  - { slug: bom, name: B, roleDefinition: r, groups: [read] }\n",
      ".roomodes",
    )
    expect(errors).toEqual([])
    expect(modes.map((m) => m.slug)).toEqual(["bom"])
  })

  it("treats an empty file as no modes and a file without customModes as an error", () => {
    expect(parseCustomModes("", "f")).toEqual({ modes: [], errors: [] })
    expect(parseCustomModes("modes: []", "f").errors[0]!.reason).toBe('expected an object with a "customModes" list')
  })
})

describe("ModeRegistry", () => {
  it("lets the workspace override the global file and the global file override built-in modes", async () => {
    const global = await ws({
      "custom_modes.yaml": `customModes:
  - { slug: code, name: Global Code, roleDefinition: g, groups: [read] }
  - { slug: shared, name: Global Shared, roleDefinition: g, groups: [read, edit] }
`,
    })
    const w = await ws({ ".roomodes": `customModes:\n  - { slug: shared, name: Workspace Shared, roleDefinition: w, groups: [read] }\n` })
    const registry = new ModeRegistry({ workspaceFolders: () => [w.root], globalConfigDir: global.root })
    expect(registry.get("code")).toMatchObject({ name: "Global Code", source: "global" })
    expect(registry.get("shared")).toMatchObject({ name: "Workspace Shared", source: "workspace" })
    expect(registry.get("architect")!.source).toBe("builtin")
    expect(registry.summaries().map((m) => [m.slug, m.source])).toEqual([
      ["code", "global"],
      ["architect", "builtin"],
      ["ask", "builtin"],
      ["debug", "builtin"],
      ["orchestrator", "builtin"],
      ["shared", "workspace"],
    ])
  })

  it("reads the global custom_modes.json when there is no YAML file", async () => {
    const global = await ws({
      "custom_modes.json": JSON.stringify({ customModes: [{ slug: "gj", name: "GJ", roleDefinition: "r", groups: [] }] }),
    })
    const registry = new ModeRegistry({ globalConfigDir: global.root })
    expect(registry.get("gj")?.source).toBe("global")
  })

  it("reports each problem once, with the file, and reports it again only after it changed", async () => {
    const w = await ws({ ".roomodes": "customModes: [oops" })
    const reported: ModeFileError[] = []
    const registry = new ModeRegistry({ workspaceFolders: () => [w.root], globalConfigDir: null, onError: (e) => reported.push(e) })
    registry.reload()
    expect(reported).toHaveLength(1)
    expect(reported[0]!.file).toBe(join(w.root, ".roomodes"))
    expect(registry.list().map((m) => m.slug)).toEqual(["code", "architect", "ask", "debug", "orchestrator"])
    await writeFile(w.path(".roomodes"), docsYaml)
    registry.reload()
    expect(registry.get("docs")?.source).toBe("workspace")
    expect(registry.errors()).toEqual([])
  })

  it("takes a .roomodes folder (the OS sandbox's placeholder during a command) for no file, without an error", async () => {
    const w = await ws()
    await mkdir(w.path(".roomodes"))
    const reported: ModeFileError[] = []
    const registry = new ModeRegistry({ workspaceFolders: () => [w.root], globalConfigDir: null, onError: (e) => reported.push(e) })
    registry.reload()
    expect(reported).toEqual([])
    expect(registry.list().map((m) => m.slug)).toEqual(["code", "architect", "ask", "debug", "orchestrator"])
  })

  it("reports a FIFO named .roomodes without reading it (a synchronous read would block the server forever)", async () => {
    const w = await ws()
    execFileSync("mkfifo", [w.path(".roomodes")])
    const reported: ModeFileError[] = []
    // Were the FIFO opened for a blocking read, this constructor would never return and the test would time out.
    const registry = new ModeRegistry({ workspaceFolders: () => [w.root], globalConfigDir: null, onError: (e) => reported.push(e) })
    registry.reload()
    expect(reported).toEqual([{ file: w.path(".roomodes"), reason: expect.stringContaining("is a FIFO (named pipe), not a regular file") }])
    expect(registry.list().map((m) => m.slug)).toEqual(["code", "architect", "ask", "debug", "orchestrator"])
  })

  it("describes a mode in listModes by its description, else the first sentence of whenToUse", () => {
    const registry = ModeRegistry.builtinOnly()
    expect(registry.summaries()[0]).toEqual({
      slug: "code",
      name: "Code",
      description: "Write, modify and refactor code",
      groups: ["read", "edit", "command", "browser", "mcp"],
      source: "builtin",
    })
  })

  it("reloads when the watched .roomodes file changes", async () => {
    const w = await ws()
    await mkdir(w.root, { recursive: true })
    const changed = new Promise<void>((resolve) => {
      const registry = new ModeRegistry({
        workspaceFolders: () => [w.root],
        globalConfigDir: null,
        watch: true,
        debounceMs: 20,
        onChange: () => {
          registry.dispose()
          resolve()
        },
      })
    })
    await writeFile(w.path(".roomodes"), docsYaml)
    await changed
  })

  it("lets the first workspace folder win when two define the same slug", async () => {
    const first = await ws({ ".roomodes": `customModes:\n  - { slug: shared, name: First, roleDefinition: r, groups: [] }\n` })
    const second = await ws({
      ".roomodes": `customModes:\n  - { slug: shared, name: Second, roleDefinition: r, groups: [] }\n  - { slug: only2, name: Only, roleDefinition: r, groups: [] }\n`,
    })
    const registry = new ModeRegistry({ workspaceFolders: () => [first.root, second.root], globalConfigDir: null })
    expect(registry.get("shared")?.name).toBe("First")
    expect(registry.get("only2")?.source).toBe("workspace")
  })

  it("reports problems found at construction, and calls onChange only for later reloads", async () => {
    const w = await ws({ ".roomodes": `${docsYaml}  - { slug: bad slug, name: B, roleDefinition: r, groups: [] }\n` })
    const reported: ModeFileError[] = []
    let changes = 0
    const registry = new ModeRegistry({
      workspaceFolders: () => [w.root],
      globalConfigDir: null,
      onError: (e) => reported.push(e),
      onChange: () => changes++,
    })
    expect(registry.get("docs")).toBeDefined()
    expect(reported.map((e) => e.reason)).toEqual(['mode 2 ("bad slug") was skipped: slug: slug must use only letters, digits and dashes'])
    expect(changes).toBe(0)
    await writeFile(w.path(".roomodes"), "")
    registry.reload()
    expect(changes).toBe(1)
    expect(registry.get("docs")).toBeUndefined()
  })

  it("reloads when the global custom modes file appears", async () => {
    const global = await ws()
    const changed = new Promise<void>((resolve) => {
      const registry: ModeRegistry = new ModeRegistry({
        globalConfigDir: global.root,
        watch: true,
        debounceMs: 20,
        onChange: () => {
          expect(registry.get("gm")?.source).toBe("global")
          registry.dispose()
          resolve()
        },
      })
    })
    await writeFile(join(global.root, "custom_modes.yaml"), "customModes:\n  - { slug: gm, name: G, roleDefinition: r, groups: [read] }\n")
    await changed
  })
})
