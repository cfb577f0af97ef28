import { describe, expect, it } from "vitest"
import { parseSearchReplaceBlocks } from "../../../server/src/edits/search-replace-parse"

describe("parseSearchReplaceBlocks", () => {
  it("reads several blocks with and without :start_line:", () => {
    const parsed = parseSearchReplaceBlocks(
      "<<<<<<< SEARCH\n:start_line:3\n-------\nold\n=======\nnew\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nx\ny\n=======\nz\n>>>>>>> REPLACE",
    )
    expect(parsed).toEqual({
      ok: true,
      blocks: [
        { index: 1, search: "old", replace: "new", startLine: 3 },
        { index: 2, search: "x\ny", replace: "z" },
      ],
    })
  })

  it("unescapes backslash-escaped markers inside content", () => {
    const parsed = parseSearchReplaceBlocks(
      "<<<<<<< SEARCH\n-------\na\n\\=======\nb\n=======\n\\>>>>>>> REPLACE\n\\<<<<<<< SEARCH\n>>>>>>> REPLACE",
    )
    expect(parsed.ok && parsed.blocks[0]).toMatchObject({ search: "a\n=======\nb", replace: ">>>>>>> REPLACE\n<<<<<<< SEARCH" })
  })

  it("strips N | prefixes when every line has one", () => {
    const parsed = parseSearchReplaceBlocks("<<<<<<< SEARCH\n12 |   foo()\n13 | bar()\n=======\n12 |   baz()\n>>>>>>> REPLACE")
    expect(parsed.ok && parsed.blocks[0]).toMatchObject({ search: "  foo()\nbar()", replace: "  baz()" })
  })

  it("strips N | prefixes from SEARCH when REPLACE has none, as read_file prints them", () => {
    const parsed = parseSearchReplaceBlocks(
      "<<<<<<< SEARCH\n 9 | if (x) {\n10 |   run()\n11 | \n12 | }\n=======\nif (y) {\n  walk()\n\n}\n>>>>>>> REPLACE",
    )
    expect(parsed.ok && parsed.blocks[0]).toMatchObject({ search: "if (x) {\n  run()\n\n}", replace: "if (y) {\n  walk()\n\n}" })
  })

  it("keeps REPLACE as written when only some of its lines look numbered", () => {
    const parsed = parseSearchReplaceBlocks("<<<<<<< SEARCH\n1 | a\n2 | b\n=======\n3 | kept as text\nplain\n>>>>>>> REPLACE")
    expect(parsed.ok && parsed.blocks[0]).toMatchObject({ search: "a\nb", replace: "3 | kept as text\nplain" })
  })

  it("refuses a :start_line: line inside REPLACE instead of writing it into the file", () => {
    const parsed = parseSearchReplaceBlocks("<<<<<<< SEARCH\nold\n=======\n:start_line:4\n-------\nnew\n>>>>>>> REPLACE")
    expect(parsed.ok).toBe(false)
    if (!parsed.ok)
      expect(parsed.error).toMatch(
        /^Block 1: ":start_line:4" is inside the REPLACE part, where it would be written into the file\. Line markers \(:start_line:N\) belong only on the lines right after "<<<<<<< SEARCH"/,
      )
  })

  it("keeps N | text when only some lines have it", () => {
    const parsed = parseSearchReplaceBlocks("<<<<<<< SEARCH\n12 | foo\nbar\n=======\nbaz\n>>>>>>> REPLACE")
    expect(parsed.ok && parsed.blocks[0]!.search).toBe("12 | foo\nbar")
  })

  it("explains a block without a closing marker", () => {
    const parsed = parseSearchReplaceBlocks("<<<<<<< SEARCH\na\n=======\nb\n")
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.error).toContain(">>>>>>> REPLACE")
  })

  it("explains a stray divider and how to escape it", () => {
    const parsed = parseSearchReplaceBlocks("=======\n")
    expect(!parsed.ok && parsed.error).toContain("escape")
  })

  it("says how the format looks when there is no block", () => {
    const parsed = parseSearchReplaceBlocks("replace foo with bar")
    expect(!parsed.ok && parsed.error).toContain("<<<<<<< SEARCH")
  })
})

/**
 * Line markers in REPLACE, as Roo-Code's multi-search-replace refuses them (cases after its
 * "line marker validation in REPLACE sections" tests, src/core/diff/strategies/__tests__/multi-search-replace.spec.ts,
 * rewritten here as our own table).
 */
describe("parseSearchReplaceBlocks: line markers in REPLACE, as Roo reads them", () => {
  const block = (replace: string, search = "content to find") => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`

  it.each([
    [":start_line: first in REPLACE", ":start_line:5\nreplacement content", ":start_line:"],
    [":end_line: first in REPLACE", ":end_line:10\nreplacement content", ":end_line:"],
    [":end_line: in the middle of REPLACE", "some replacement\n:end_line:15\nmore replacement", ":end_line:"],
    ["an indented marker with trailing spaces", "  :start_line:5  \nreplacement content", ":start_line:"],
    ["a marker without a number", "replacement\n:end_line:", ":end_line:"],
  ])("refuses %s with the one line-marker message", (_name, replace, marker) => {
    const parsed = parseSearchReplaceBlocks(block(replace))
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) {
      expect(parsed.error).toContain(`is inside the REPLACE part, where it would be written into the file. Line markers (${marker}N)`)
      expect(parsed.error).toContain(`escape it with a backslash (\\${marker})`)
    }
  })

  it("refuses the marker in the second block when the first is right", () => {
    const parsed = parseSearchReplaceBlocks(
      `${block("replacement1", ":start_line:1\ncontent1")}\n\n${block(":start_line:5\nreplacement2", "content2")}`,
    )
    expect(!parsed.ok && parsed.error).toMatch(/^Block 2: ":start_line:5" is inside the REPLACE part/)
  })

  it("takes :start_line: and :end_line: after SEARCH as hints, not content", () => {
    const parsed = parseSearchReplaceBlocks(
      "<<<<<<< SEARCH\n:start_line:5\n:end_line:10\n-------\ncontent to find\n=======\nreplacement\n>>>>>>> REPLACE",
    )
    expect(parsed.ok && parsed.blocks[0]).toEqual({ index: 1, search: "content to find", replace: "replacement", startLine: 5 })
  })

  it("writes escaped line markers in REPLACE as file content, without the backslash", () => {
    const parsed = parseSearchReplaceBlocks(block("replacement content\n\\:start_line:5\n\\:end_line:10\nmore content"))
    expect(parsed.ok && parsed.blocks[0]!.replace).toBe("replacement content\n:start_line:5\n:end_line:10\nmore content")
  })
})
