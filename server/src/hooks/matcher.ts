import { createRequire } from "node:module"
import type { RE2 as RE2Type } from "re2-wasm"

/**
 * A hook's `matcher`: an RE2 regular expression over our tool names (linear time, so no matcher can freeze the
 * server), anchored like Claude Code's (`write_to_file` matches only that tool); `*` or empty matches all.
 */
let re2Class: typeof import("re2-wasm").RE2 | undefined
const compiled = new Map<string, RE2Type | null>()

export function matcherMatches(matcher: string | undefined, toolName: string | undefined): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true
  if (toolName === undefined) return false
  const re = compile(matcher)
  return re?.test(toolName) ?? false
}

/** Why a matcher cannot be used (RE2 refuses it), or undefined. */
export function matcherProblem(matcher: string | undefined): string | undefined {
  if (matcher === undefined || matcher === "" || matcher === "*") return undefined
  try {
    newRe2(`^(?:${matcher})$`)
    return undefined
  } catch (error) {
    return `matcher "${matcher}" is not a regular expression RE2 can run (${error instanceof Error ? error.message : String(error)})`
  }
}

function compile(matcher: string): RE2Type | null {
  if (!compiled.has(matcher)) {
    try {
      compiled.set(matcher, newRe2(`^(?:${matcher})$`))
    } catch {
      compiled.set(matcher, null)
    }
  }
  return compiled.get(matcher) ?? null
}

function newRe2(pattern: string): RE2Type {
  re2Class ??= (createRequire(import.meta.url)("re2-wasm") as typeof import("re2-wasm")).RE2
  return new re2Class(pattern, "u")
}
