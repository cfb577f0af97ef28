import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { applyPatchHunks } from "../../../server/src/edits/apply-patch-hunks"
import { parsePatch } from "../../../server/src/edits/apply-patch-parse"
import { applySearchReplaceBlocks } from "../../../server/src/edits/apply-search-replace"
import { parseSearchReplaceBlocks } from "../../../server/src/edits/search-replace-parse"

// Lines a model might send, markers and near-markers included.
const line = fc.constantFrom(
  "<<<<<<< SEARCH",
  "=======",
  ">>>>>>> REPLACE",
  "-------",
  ":start_line:3",
  ":start_line:999",
  "\\=======",
  "a",
  "  b",
  "",
  "\tc",
  "1 | a",
  "*** Begin Patch",
  "*** End Patch",
  "*** Update File: f",
  "*** Add File: g",
  "@@",
  " a",
  "-a",
  "+z",
  "*** End of File",
)
const text = fc.array(line, { maxLength: 30 }).map((lines) => lines.join("\n"))
const file = fc.array(fc.constantFrom("a", "  b", "", "\tc", "a  ", "b"), { maxLength: 20 }).map((lines) => lines.join("\n"))

describe("edit engine robustness (property)", () => {
  it("never throws on arbitrary diffs and files: errors are values", () => {
    fc.assert(
      fc.property(text, file, fc.constantFrom(1, 0.9, 0.5), (diff, content, fuzzyThreshold) => {
        const parsed = parseSearchReplaceBlocks(diff)
        if (!parsed.ok) {
          expect(parsed.error.length).toBeGreaterThan(0)
          return
        }
        const result = applySearchReplaceBlocks(content, parsed.blocks, { fuzzyThreshold })
        expect(result.applied.length + result.failed.length).toBe(parsed.blocks.length)
        if (result.applied.length === 0) expect(result.text).toBe(content)
      }),
      { numRuns: 500 },
    )
  })

  it("never throws on arbitrary patches", () => {
    fc.assert(
      fc.property(text, file, (patch, content) => {
        const parsed = parsePatch(patch)
        if (!parsed.ok) return
        for (const op of parsed.operations) if (op.type === "update") applyPatchHunks(op.path, content, op.hunks)
      }),
      { numRuns: 500 },
    )
  })

  it("a one-hunk patch built from the file applies back to the expected text", () => {
    const lines = fc.array(
      fc.integer({ min: 0, max: 5 }).map((n) => `line ${n}`),
      { minLength: 1, maxLength: 25 },
    )
    fc.assert(
      fc.property(lines, fc.nat(), fc.nat(), (rows, a, b) => {
        const start = a % rows.length
        const count = 1 + (b % Math.min(3, rows.length - start))
        // Context = everything before the change, so the hunk can only land in one place.
        const hunk = [...rows.slice(0, start).map((l) => ` ${l}`), ...rows.slice(start, start + count).map((l) => `-${l}`), "+NEW"]
        const parsed = parsePatch(["*** Begin Patch", "*** Update File: f.txt", "@@", ...hunk, "*** End Patch"].join("\n"))
        if (!parsed.ok) throw new Error(parsed.error)
        const op = parsed.operations[0]!
        if (op.type !== "update") throw new Error("expected update")
        const result = applyPatchHunks("f.txt", `${rows.join("\n")}\n`, op.hunks)
        expect(result).toEqual({ ok: true, text: `${[...rows.slice(0, start), "NEW", ...rows.slice(start + count)].join("\n")}\n` })
      }),
      { numRuns: 300 },
    )
  })
})
