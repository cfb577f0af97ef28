import { stemmer } from "stemmer"

/**
 * How code and questions become search terms. One tokenizer for both sides, so "parse the YAML document"
 * meets `parseDocument` and `parse_yaml_doc`: identifiers are split at camelCase humps, snake_case and
 * kebab-case separators and letter/digit boundaries; every part is lower-cased and Porter-stemmed; the
 * whole identifier is kept as one more term, so an exact name still scores above its parts.
 */

/** Words too common in English questions or in any code to tell two chunks apart. */
const STOP_WORDS = new Set(
  (
    "a an and are as at be but by can do does for from has have how i if in into is it its me my no not of on or " +
    "our so than that the their then there these this those to was were what when where which while who why will " +
    "with you your we use used uses using get gets set sets code file function method class value values " +
    "const let var return new true false null undefined void self def import export public private static"
  ).split(" "),
)

// Runs of letters or digits (any script), so `foo.bar(baz_1)` yields foo, bar, baz_1-parts.
const WORD = /[\p{L}\p{N}_$]+/gu
// Boundaries inside one identifier: lower→Upper, ACRONYMWord, letter↔digit, and the separators _ $.
const PART = /[\p{Lu}]?[\p{Ll}]+|[\p{Lu}]+(?![\p{Ll}])|\p{N}+|[\p{Lo}\p{Lt}\p{Lm}]+/gu

/** Raw terms of a text: identifier parts plus, for identifiers of several parts, the whole identifier. */
export function splitTerms(text: string): string[] {
  const out: string[] = []
  for (const word of text.match(WORD) ?? []) {
    const parts = word.match(PART) ?? []
    out.push(...parts)
    if (parts.length > 1) out.push(word.replace(/[_$]/g, ""))
  }
  return out
}

/** One raw term as stored and searched: lower-cased, stemmed; null for stop words and noise. */
export function normalizeTerm(term: string): string | null {
  const lower = term.toLowerCase()
  if (lower.length < 2 && !/\p{N}/u.test(lower)) return null
  if (STOP_WORDS.has(lower)) return null
  // Long compound identifiers are matched whole; stemming them would only blur them.
  if (lower.length > 24) return lower
  const stem = stemmer(lower)
  return STOP_WORDS.has(stem) ? null : stem
}

/** The normalized terms of a text, in order (duplicates kept: BM25 counts them). */
export function terms(text: string): string[] {
  const out: string[] = []
  for (const raw of splitTerms(text)) {
    const term = normalizeTerm(raw)
    if (term) out.push(term)
  }
  return out
}
