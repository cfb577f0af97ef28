import { createHash } from "node:crypto"
import type { ToolResult } from "../tools/tool"

/** A call the tracker refuses: the same call again, or the next step of a loop. */
export type Repetition = { kind: "identical"; tool: string; count: number } | { kind: "cycle"; tool: string; cycle: string[] }

/** A loop must show up within this many calls (the new one included) to be caught. */
const CYCLE_WINDOW = 10
/** Enough history for any sensible agent.limits.repeatedCalls. */
const MAX_HISTORY = 256

interface Entry {
  key: string
  tool: string
  resultHash: string
}

/**
 * Catches a model that repeats itself. The key of a call is its tool plus its params in canonical form
 * (key order ignored). Refused: a call identical to the last `limit` ones, or the start of a
 * (limit+1)th round of a short loop (A,B,A,B,A,B → A) inside a window of 10. Calls whose results kept
 * changing (polling a command's output, re-reading a file that changed) are not repetition: a run
 * only counts while the results stay the same.
 */
export class RepetitionTracker {
  private history: Entry[] = []

  /** Is this call (not yet run) a repetition at this limit (0 = off)? */
  check(tool: string, key: string, limit: number): Repetition | undefined {
    if (limit <= 0 || this.history.length < limit) return undefined
    const h = this.history
    const last = h[h.length - 1]!
    if (last.key === key) {
      let count = 0
      for (let i = h.length - 1; i >= 0 && h[i]!.key === key && h[i]!.resultHash === last.resultHash; i--) count++
      return count >= limit ? { kind: "identical", tool, count } : undefined
    }
    for (const period of [2, 3]) {
      const span = period * limit
      if (span + 1 > CYCLE_WINDOW || h.length < span) continue
      const start = h.length - span
      if (h[start]!.key !== key) continue
      let loops = true
      for (let i = start + period; i < h.length && loops; i++) {
        if (h[i]!.key !== h[i - period]!.key || h[i]!.resultHash !== h[i - period]!.resultHash) loops = false
      }
      const cycleKeys = new Set(h.slice(start, start + period).map((e) => e.key))
      if (loops && cycleKeys.size > 1) return { kind: "cycle", tool, cycle: h.slice(start, start + period).map((e) => e.tool) }
    }
    return undefined
  }

  /** Remembers a call that went through, with its result. */
  record(tool: string, key: string, result: ToolResult): void {
    this.history.push({ key, tool, resultHash: hashResult(result) })
    // Trimmed in chunks so a long session does not shift the array on every call.
    if (this.history.length > 2 * MAX_HISTORY) this.history.splice(0, this.history.length - MAX_HISTORY)
  }

  /** Forgets everything (after the user answered at the limit). */
  reset(): void {
    this.history = []
  }
}

/** The repetition key: tool name plus params with object keys sorted. */
export function callKey(tool: string, params: unknown): string {
  return `${tool}\u0000${canonicalJson(params)}`
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`
}

function hashResult(result: ToolResult): string {
  // Short results are compared as they are; hashing them would cost more than it saves.
  const only = result.content.length === 1 ? result.content[0]! : undefined
  if (only?.type === "text" && only.text.length <= 512) return `${result.isError ? "1" : "0"}t${only.text}`
  const hash = createHash("sha1")
  hash.update(result.isError ? "1" : "0")
  for (const block of result.content) hash.update(block.type === "text" ? `t${block.text}` : `i${block.base64}`)
  return hash.digest("base64")
}
