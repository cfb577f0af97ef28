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
    const parsed = parseSearchReplaceBlocks("<<<<<<< SEARCH\n-------\na\n\\=======\nb\n=======\n\\>>>>>>> REPLACE\n\\<<<<<<< SEARCH\n>>>>>>> REPLACE")
    expect(parsed.ok && parsed.blocks[0]).toMatchObject({ search: "a\n=======\nb", replace: ">>>>>>> REPLACE\n<<<<<<< SEARCH" })
  })

  it("strips N | prefixes when every line has one", () => {
    const parsed = parseSearchReplaceBlocks("<<<<<<< SEARCH\n12 |   foo()\n13 | bar()\n=======\n12 |   baz()\n>>>>>>> REPLACE")
    expect(parsed.ok && parsed.blocks[0]).toMatchObject({ search: "  foo()\nbar()", replace: "  baz()" })
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
