import { readFile } from "node:fs/promises"
import { afterEach, describe, expect, it } from "vitest"
import { applyDiff } from "../../../../server/src/tools/apply-diff"
import { writeToFile } from "../../../../server/src/tools/write-to-file"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { callTool, text } from "./call-tool"

let ws: TempWorkspace
afterEach(() => ws?.cleanup())

describe("write_to_file", () => {
  it("creates parent folders and reports the file as created", async () => {
    ws = await tempWorkspace()
    const { result, preview } = await callTool(writeToFile, { path: "src/deep/new.ts", content: "export {}\n" }, makeToolContext(ws.root))
    expect(await readFile(ws.path("src/deep/new.ts"), "utf8")).toBe("export {}\n")
    expect(text(result)).toMatch(/^Created src\/deep\/new\.ts \(\+1 -0 lines\)/)
    expect(preview!.title).toBe("Create src/deep/new.ts")
    expect(writeToFile.touchedPaths!({ path: "src/deep/new.ts", content: "" })).toEqual(["src/deep/new.ts"])
  })

  it("strips a surrounding code fence and N | prefixes, and keeps an existing file's CRLF", async () => {
    ws = await tempWorkspace({ "a.txt": "old\r\n" })
    const { result } = await callTool(writeToFile, { path: "a.txt", content: "```\n1 | one\n2 |   two\n```" }, makeToolContext(ws.root))
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("one\r\n  two\r\n")
    expect(text(result)).toMatch(/^Modified a\.txt/)
    expect(text(result)).toContain("line number")
  })

  it("keeps a code fence that is the content of a markdown file", async () => {
    ws = await tempWorkspace()
    await callTool(writeToFile, { path: "snippet.md", content: "```sh\nnpm test\n```\n" }, makeToolContext(ws.root))
    expect(await readFile(ws.path("snippet.md"), "utf8")).toBe("```sh\nnpm test\n```\n")
  })

  it("refuses a path outside the workspace and a .rooignore'd path, writing nothing", async () => {
    ws = await tempWorkspace({ ".rooignore": "secret/\n" })
    const ctx = makeToolContext(ws.root)
    const outside = await callTool(writeToFile, { path: "../escape.txt", content: "x" }, ctx)
    expect(outside.result).toMatchObject({ isError: true, countsAsMistake: true })
    expect(text(outside.result)).toContain("outside")
    const ignored = await callTool(writeToFile, { path: "secret/key.txt", content: "x" }, ctx)
    expect(text(ignored.result)).toContain("Access blocked by .rooignore")
    await expect(readFile(ws.path("secret/key.txt"), "utf8")).rejects.toThrow()
  })

  it("says so when the content is already what the file holds", async () => {
    ws = await tempWorkspace({ "a.txt": "same\n" })
    const { result, preview } = await callTool(writeToFile, { path: "a.txt", content: "same\n" }, makeToolContext(ws.root))
    expect(preview).toBeUndefined()
    expect(text(result)).toContain("already has exactly this content")
  })
})

describe("apply_diff", () => {
  const file = "function a() {\n  return 1\n}\n\nfunction b() {\n  return 2\n}\n"

  it("applies the blocks that match and says which did not, with the closest text", async () => {
    ws = await tempWorkspace({ "m.js": file })
    const d = [
      "<<<<<<< SEARCH\n:start_line:2\n-------\n  return 1\n=======\n  return 10\n>>>>>>> REPLACE",
      "<<<<<<< SEARCH\n:start_line:6\n-------\n  return 3\n=======\n  return 30\n>>>>>>> REPLACE",
    ].join("\n")
    const { result } = await callTool(applyDiff, { path: "m.js", diff: d }, makeToolContext(ws.root))
    expect(result.isError).toBe(false)
    expect(await readFile(ws.path("m.js"), "utf8")).toBe(file.replace("return 1", "return 10"))
    const message = text(result)
    expect(message).toContain("block 1 of 2 applied; block 2 did not")
    expect(message).toMatch(/closest text is at line 6, \d+% similar/)
    expect(message).toContain("Re-read m.js")
  })

  it("fails as a mistake with every block's reason when nothing applies, leaving the file alone", async () => {
    ws = await tempWorkspace({ "m.js": file })
    const { result } = await callTool(
      applyDiff,
      { path: "m.js", diff: "<<<<<<< SEARCH\n  return 9\n=======\n  return 90\n>>>>>>> REPLACE" },
      makeToolContext(ws.root),
    )
    expect(result).toMatchObject({ isError: true, countsAsMistake: true })
    expect(text(result)).toContain("was not applied; the file is unchanged")
    expect(await readFile(ws.path("m.js"), "utf8")).toBe(file)
  })

  it("refuses an ambiguous block naming both places", async () => {
    ws = await tempWorkspace({ "m.js": file.replace("return 2", "return 1") })
    const { result } = await callTool(
      applyDiff,
      { path: "m.js", diff: "<<<<<<< SEARCH\n  return 1\n=======\n  return 5\n>>>>>>> REPLACE" },
      makeToolContext(ws.root),
    )
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("lines 2, 6")
  })

  it("uses agent.diff.fuzzyThreshold for near matches", async () => {
    ws = await tempWorkspace({ "m.js": file })
    const d = "<<<<<<< SEARCH\nfunction a() {\n  return 1;\n}\n=======\nfunction a() {\n  return 11\n}\n>>>>>>> REPLACE"
    const strict = await callTool(applyDiff, { path: "m.js", diff: d }, makeToolContext(ws.root))
    expect(strict.result.isError).toBe(true)
    const loose = await callTool(
      applyDiff,
      { path: "m.js", diff: d },
      makeToolContext(ws.root, { settings: { diff: { fuzzyThreshold: 0.9 } } }),
    )
    expect(loose.result.isError).toBe(false)
    expect(text(loose.result)).toMatch(/block 1 at lines 1-3 \(\d+% similar\)/)
  })

  it("explains a malformed diff and a missing file", async () => {
    ws = await tempWorkspace({ "m.js": file })
    const broken = await callTool(applyDiff, { path: "m.js", diff: "<<<<<<< SEARCH\nx\n" }, makeToolContext(ws.root))
    expect(text(broken.result)).toContain('no "=======" line')
    const missing = await callTool(
      applyDiff,
      { path: "nope.js", diff: "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE" },
      makeToolContext(ws.root),
    )
    expect(text(missing.result)).toContain("write_to_file")
  })
})
