import { createRequire } from "node:module"
import type { RE2 } from "re2-wasm"

/**
 * A linear-time regular expression (RE2) for patterns users and workspaces write (mode fileRegex, hook
 * matchers, artifact searches): no pattern can make a match take exponential time. re2-wasm is loaded on
 * first use: its WebAssembly engine stays resident for the process's life (~5 MiB of ~16 MiB reserved), and
 * most sessions never need it. Throws on a pattern RE2 cannot compile.
 */
export function newRe2(pattern: string, flags: string): RE2 {
  re2Class ??= (createRequire(import.meta.url)("re2-wasm") as typeof import("re2-wasm")).RE2
  return new re2Class(pattern, flags)
}
let re2Class: typeof import("re2-wasm").RE2 | undefined

export type { RE2 }
