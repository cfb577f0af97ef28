import { type Hunk, hunkIds, lineHunks, splitLines } from "./hunks"
import type { TrackedFile } from "./review-store"
import { type StoredRef, storedTextOf } from "./stored-texts"

/** A file's hunks with their ids, as computed for one baseline and one text now. */
export interface FileHunks {
  hunks: Hunk[]
  ids: string[]
}

interface Entry extends FileHunks {
  baseline: string | undefined
  now: string | undefined
  /** Hunks stored before a restart: for the stored texts (refs), never decoded to be compared. */
  stored?: StoredEntry
}

interface StoredEntry {
  baseline: StoredRef | undefined
  agentText: StoredRef | undefined
  /** The text now it was found to hold (after the first comparison, a string comparison as for any entry). */
  checked?: { now: string | undefined }
}

/**
 * A file's hunks are a function of its baseline and its text now, and both rarely change between two
 * listings (the editor's review refresh lists after every change, a client lists again after deciding):
 * each file's last result is kept with the two texts it came from and reused while both are the same.
 * Comparing the texts costs a memcmp; diffing them and hashing each hunk's id cost far more.
 */
export class HunkCache {
  private readonly entries = new Map<string, Entry>()

  /** The hunks of `file` (tracked at `path`) from its baseline to `now` (undefined: the file is absent). */
  of(path: string, file: TrackedFile, now: string | undefined): FileHunks {
    const known = this.entries.get(path)
    if (known && (known.stored ? storedMatches(known.stored, file, now) : known.baseline === file.baseline && known.now === now))
      return known
    const hunks = hunksOf(file, now)
    const entry = { baseline: file.baseline, now, hunks, ids: hunkIds(path, hunks) }
    this.entries.set(path, entry)
    return entry
  }

  /**
   * Hunks computed before a restart (the review store keeps them): used like any entry, that is only while
   * the file's baseline and its text now are exactly `baseline` and `now`, so a first listing after a
   * restart diffs only the files that changed since.
   */
  seed(path: string, file: TrackedFile, { hunks, ids }: FileHunks): void {
    if (this.entries.has(path)) return
    const baseline = storedTextOf(file, "baseline")
    const agentText = storedTextOf(file, "agentText")
    // Texts still as bytes (review-file.ts) are compared as bytes; texts read from a store of the previous format are strings.
    if (baseline || agentText) this.entries.set(path, { baseline: undefined, now: undefined, hunks, ids, stored: { baseline, agentText } })
    else this.entries.set(path, { baseline: file.baseline, now: file.agentText, hunks, ids })
  }

  /**
   * The hunks worth storing with the review: those of files still as the agent (or a command) left them
   * (the text now is the entry's agentText), which is what a restart finds in the common case.
   */
  storable(files: Readonly<Record<string, TrackedFile>>): Record<string, FileHunks> {
    const out: Record<string, FileHunks> = {}
    for (const [path, entry] of this.entries) {
      const file = files[path]
      if (!file || entry.hunks.length === 0) continue
      const same = entry.stored
        ? sameStored(entry.stored.baseline, file, "baseline") && sameStored(entry.stored.agentText, file, "agentText")
        : entry.baseline === file.baseline && entry.now === file.agentText
      if (same) out[path] = { hunks: entry.hunks, ids: entry.ids }
    }
    return out
  }

  /** Forgets every file but `paths` (those still in a review), so the cache never outgrows the reviews. */
  keepOnly(paths: Iterable<string>): void {
    const keep = new Set(paths)
    for (const path of this.entries.keys()) if (!keep.has(path)) this.entries.delete(path)
  }
}

/** Whether `file[key]` still holds the stored text `ref` (undefined: holds no text, and no stored one). */
function sameStored(ref: StoredRef | undefined, file: TrackedFile, key: "baseline" | "agentText"): boolean {
  return ref ? storedTextOf(file, key) === ref : !storedTextOf(file, key) && file[key] === undefined
}

/** Whether stored hunks apply to `file` with `now`: its baseline is still the stored one, and `now` is the stored agent text. */
function storedMatches(stored: StoredEntry, file: TrackedFile, now: string | undefined): boolean {
  if (!sameStored(stored.baseline, file, "baseline")) return false
  if (stored.checked) return stored.checked.now === now
  const { agentText } = stored
  const matches = agentText ? agentText.texts.equals(agentText.index, now) : now === undefined
  if (matches) stored.checked = { now }
  return matches
}

/** A file's hunks from its baseline to `now`: a created or deleted file is one hunk of its whole text. */
export function hunksOf(file: TrackedFile, now: string | undefined): Hunk[] {
  if (file.baseline === undefined) return now === undefined ? [] : [{ oldStart: 0, oldLines: [], newStart: 0, newLines: splitLines(now) }]
  if (now === undefined) return [{ oldStart: 0, oldLines: splitLines(file.baseline), newStart: 0, newLines: [] }]
  return lineHunks(file.baseline, now)
}
