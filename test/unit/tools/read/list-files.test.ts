import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { defaultSettings } from "../../../../server/src/config/schema"
import { listFiles } from "../../../../server/src/tools/list-files"
import { callTool, textOf } from "./run-tool"

let ws: TempWorkspace
beforeEach(async () => {
  ws = await tempWorkspace({
    ".gitignore": "*.log\nbuild/\n",
    ".rooignore": "secrets/\n",
    "README.md": "r",
    "app.log": "l",
    "build/out.js": "b",
    "src/index.ts": "i",
    "src/lib/util.ts": "u",
    "src/lib/.gitignore": "gen.ts\n",
    "src/lib/gen.ts": "g",
    "secrets/key.txt": "k",
    "node_modules/pkg/index.js": "n",
    "dist/bundle.js": "d",
    ".github/workflows/ci.yml": "c",
  })
})
afterEach(() => ws.cleanup())

describe("list_files", () => {
  it("lists direct entries, folders with a slash, .gitignore'd entries left out, .rooignore'd marked", async () => {
    const r = await callTool(listFiles, { path: "." }, makeToolContext(ws.root))
    expect(textOf(r)).toBe(
      [
        ".github/",
        ".gitignore",
        ".rooignore",
        "README.md",
        "dist/",
        "node_modules/",
        "🔒 secrets/",
        "src/",
        "",
        "🔒 = blocked by .rooignore: it cannot be read or edited.",
      ].join("\n"),
    )
    expect(r.prepared?.preview.subject).toEqual({ kind: "read", paths: ["."] })
  })

  it("lists recursively, honouring nested .gitignore files and not descending into dependency, build and hidden folders", async () => {
    const text = textOf(await callTool(listFiles, { path: ".", recursive: true }, makeToolContext(ws.root)))
    expect(text).toContain("src/lib/util.ts")
    expect(text).not.toContain("gen.ts")
    expect(text).not.toContain("app.log")
    expect(text).not.toContain("build/")
    expect(text).toContain("node_modules/ (not listed inside)")
    expect(text).toContain("dist/ (not listed inside)")
    expect(text).toContain(".github/ (not listed inside)")
    expect(text).not.toContain("pkg")
    expect(text).not.toContain("key.txt")
  })

  it("lists inside a skipped folder when asked for it directly", async () => {
    const text = textOf(await callTool(listFiles, { path: "node_modules", recursive: true }, makeToolContext(ws.root)))
    expect(text).toBe("node_modules/pkg/\nnode_modules/pkg/index.js")
  })

  it("applies the root .gitignore when listing a subfolder", async () => {
    const text = textOf(await callTool(listFiles, { path: "src/lib" }, makeToolContext(ws.root)))
    expect(text).toBe("src/lib/.gitignore\nsrc/lib/util.ts")
  })

  it("caps the listing at agent.files.listLimit and says so", async () => {
    const many = await tempWorkspace(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${String(i).padStart(2, "0")}.txt`, "x"])))
    try {
      const ctx = makeToolContext(many.root, { settings: { files: { ...defaultSettings().files, listLimit: 10 } } })
      const text = textOf(await callTool(listFiles, { path: "." }, ctx))
      const lines = text.split("\n")
      expect(lines.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `f${String(i).padStart(2, "0")}.txt`))
      expect(lines.at(-1)).toBe(
        "(Listing cut at 10 entries, agent.files.listLimit. List a subfolder, or use search_files, to see the rest.)",
      )
    } finally {
      await many.cleanup()
    }
  })

  it("lists the top levels first when a recursive listing is capped", async () => {
    const ctx = makeToolContext(ws.root, { settings: { files: { ...defaultSettings().files, listLimit: 8 } } })
    const text = textOf(await callTool(listFiles, { path: ".", recursive: true }, ctx))
    expect(text).toContain("src/")
    expect(text).not.toContain("src/lib/util.ts")
  })

  it("refuses a .rooignore'd folder, a file, a missing folder and an escape", async () => {
    const ctx = makeToolContext(ws.root)
    expect(JSON.parse(textOf(await callTool(listFiles, { path: "secrets" }, ctx))).message).toBe("Access blocked by .rooignore")
    expect(textOf(await callTool(listFiles, { path: "README.md" }, ctx))).toBe(
      "README.md is a file, not a directory. Use read_file to read it.",
    )
    expect(textOf(await callTool(listFiles, { path: "nope" }, ctx))).toBe("Directory not found: nope. List its parent to see what exists.")
    expect((await callTool(listFiles, { path: ".." }, ctx)).isError).toBe(true)
  })
})
