import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { applySearchReplaceBlocks } from "../../../server/src/edits/apply-search-replace"
import { parseSearchReplaceBlocks } from "../../../server/src/edits/search-replace-parse"

// Few distinct lines, so files repeat themselves and near-duplicates abound; markers appear as content.
const line = fc.constantFrom("", "}", "  return x", "\treturn x", "foo()", "foo( )", "=======", "-------", "  if (a) {", "x = 1", "  x = 1")

const escapeMarker = (l: string) => (/^(={7}|-{7}|<{7} SEARCH|>{7} REPLACE)$/.test(l) ? `\\${l}` : l)

function toDiff(search: string[], replace: string[], startLine?: number): string {
  return [
    "<<<<<<< SEARCH",
    ...(startLine ? [`:start_line:${startLine}`] : []),
    "-------",
    ...search.map(escapeMarker),
    "=======",
    ...replace.map(escapeMarker),
    ">>>>>>> REPLACE",
  ].join("\n")
}

const scenario = fc
  .record({
    file: fc.array(line, { minLength: 1, maxLength: 60 }),
    replace: fc.array(line, { minLength: 1, maxLength: 5 }),
    a: fc.nat(),
    b: fc.nat(),
  })
  .map(({ file, replace, a, b }) => {
    const start = a % file.length
    const length = 1 + (b % Math.min(6, file.length - start))
    return { file, replace, start, search: file.slice(start, start + length) }
  })
  .filter(({ search }) => search.some((l) => l.trim() !== ""))
  // The block format cannot tell "replace with one blank line" from "delete" (both are an empty REPLACE part).
  .filter(({ replace }) => !(replace.length === 1 && replace[0] === ""))

describe("applySearchReplaceBlocks (property)", () => {
  it("puts the replacement exactly where the hinted SEARCH text was, even among repeats", () => {
    fc.assert(
      fc.property(scenario, ({ file, replace, start, search }) => {
        const parsed = parseSearchReplaceBlocks(toDiff(search, replace, start + 1))
        expect(parsed.ok).toBe(true)
        if (!parsed.ok) return
        const result = applySearchReplaceBlocks(`${file.join("\n")}\n`, parsed.blocks)
        expect(result.failed).toEqual([])
        const expected = [...file.slice(0, start), ...replace, ...file.slice(start + search.length)]
        expect(result.text).toBe(`${expected.join("\n")}\n`)
      }),
      { numRuns: 400 },
    )
  })

  it("without a hint, either lands exactly at the only place or refuses with every place named", () => {
    fc.assert(
      fc.property(scenario, ({ file, replace, start, search }) => {
        const parsed = parseSearchReplaceBlocks(toDiff(search, replace))
        if (!parsed.ok) throw new Error(parsed.error)
        const result = applySearchReplaceBlocks(file.join("\n"), parsed.blocks)
        const places = file.map((_, s) => s).filter((s) => search.every((l, j) => file[s + j] === l))
        if (places.length === 1) {
          expect(result.text).toBe([...file.slice(0, start), ...replace, ...file.slice(start + search.length)].join("\n"))
        } else {
          expect(result.text).toBe(file.join("\n"))
          expect(result.failed[0]!.candidates).toEqual(places.map((s) => s + 1))
        }
      }),
      { numRuns: 400 },
    )
  })
})

describe("applySearchReplaceBlocks with an inexact hint (property)", () => {
  it("lands at the exact copy nearest the hint, or refuses a tie naming both", () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: -4, max: 4 }), ({ file, replace, start, search }, delta) => {
        const hint = Math.max(0, start + delta)
        const parsed = parseSearchReplaceBlocks(toDiff(search, replace, hint + 1))
        if (!parsed.ok) throw new Error(parsed.error)
        const result = applySearchReplaceBlocks(file.join("\n"), parsed.blocks)
        const places = file.map((_, s) => s).filter((s) => s + search.length <= file.length && search.every((l, j) => file[s + j] === l))
        const best = Math.min(...places.map((s) => Math.abs(s - hint)))
        const nearest = places.filter((s) => Math.abs(s - hint) === best)
        if (nearest.length === 1) {
          const at = nearest[0]!
          expect(result.text).toBe([...file.slice(0, at), ...replace, ...file.slice(at + search.length)].join("\n"))
        } else {
          expect(result.failed[0]!.candidates).toEqual(nearest.map((s) => s + 1))
        }
      }),
      { numRuns: 400 },
    )
  })
})

describe("applySearchReplaceBlocks whitespace tier (property)", () => {
  // Unique lines, each with its own indentation, so the only match is the intended one.
  const indented = fc
    .array(fc.record({ depth: fc.integer({ min: 0, max: 3 }), word: fc.constantFrom("foo()", "bar = 1", "if (x) {", "}", "return y") }), {
      minLength: 1,
      maxLength: 40,
    })
    .map((rows) => rows.map((r, i) => `${"  ".repeat(r.depth)}${r.word} // ${i}`))

  it("finds SEARCH text written with an extra indentation level and re-indents the replacement back", () => {
    fc.assert(
      fc.property(indented, fc.nat(), fc.nat(), (file, a, b) => {
        const start = a % file.length
        const length = 1 + (b % Math.min(5, file.length - start))
        const original = file.slice(start, start + length)
        // The model wrote the block one level deeper than the file has it, and changed nothing else.
        const shifted = original.map((l) => `    ${l}`)
        const changed = shifted.map((l) => `${l} // edited`)
        const result = applySearchReplaceBlocks(file.join("\n"), [{ index: 1, search: shifted.join("\n"), replace: changed.join("\n") }])
        expect(result.failed).toEqual([])
        expect(result.applied[0]).toMatchObject({ startLine: start + 1, match: "whitespace" })
        const expected = [...file.slice(0, start), ...original.map((l) => `${l} // edited`), ...file.slice(start + length)]
        expect(result.text).toBe(expected.join("\n"))
      }),
      { numRuns: 300 },
    )
  })
})
