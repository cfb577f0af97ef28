import type { FileHunks } from "./hunk-cache"
import type { Hunk } from "./hunks"

/**
 * A file's hunks as the review file keeps them: the ids, four numbers per hunk (old start, old line count,
 * new start, new line count) and all their lines in one list. Parsing a thousand files' hunks as one
 * object and two arrays per hunk took several times as long as these flat lists and rebuilding the hunks.
 */
export interface PackedHunks {
  ids: string[]
  n: number[]
  lines: string[]
}

export function packHunks(files: Readonly<Record<string, FileHunks>>): Record<string, PackedHunks> {
  const out: Record<string, PackedHunks> = {}
  for (const [path, { hunks, ids }] of Object.entries(files)) {
    const n: number[] = []
    const lines: string[] = []
    for (const h of hunks) {
      n.push(h.oldStart, h.oldLines.length, h.newStart, h.newLines.length)
      for (const line of h.oldLines) lines.push(line)
      for (const line of h.newLines) lines.push(line)
    }
    out[path] = { ids, n, lines }
  }
  return out
}

/** The stored hunks of each file; a file whose entry is not of this shape is left out (it is diffed again). */
export function unpackHunks(stored: unknown): Record<string, FileHunks> {
  const out: Record<string, FileHunks> = {}
  if (!stored || typeof stored !== "object") return out
  for (const [path, entry] of Object.entries(stored as Record<string, Partial<PackedHunks> | null>)) {
    const hunks = entry ? unpacked(entry) : undefined
    if (hunks) out[path] = { hunks, ids: entry!.ids! }
  }
  return out
}

function unpacked({ ids, n, lines }: Partial<PackedHunks>): Hunk[] | undefined {
  if (!Array.isArray(ids) || !Array.isArray(n) || !Array.isArray(lines) || n.length !== 4 * ids.length) return undefined
  if (!ids.every((id) => typeof id === "string") || !lines.every((line) => typeof line === "string")) return undefined
  if (!n.every((x) => Number.isSafeInteger(x) && x >= 0)) return undefined
  const hunks: Hunk[] = []
  let at = 0
  for (let i = 0; i < ids.length; i++) {
    const oldCount = n[4 * i + 1]!
    const newCount = n[4 * i + 3]!
    if (at + oldCount + newCount > lines.length) return undefined
    hunks.push({
      oldStart: n[4 * i]!,
      oldLines: lines.slice(at, at + oldCount),
      newStart: n[4 * i + 2]!,
      newLines: lines.slice(at + oldCount, at + oldCount + newCount),
    })
    at += oldCount + newCount
  }
  return at === lines.length ? hunks : undefined
}
