import { fileURLToPath } from "node:url"
import type { ParamsOf } from "@agent-lsp/protocol"
import { type Hunk, rejectHunk } from "./hunks"
import type { TrackedFile } from "./review-store"

/**
 * What a review decision covers and what a reject writes: pure functions of the listing.
 */

/** One file as listed: its state, its text now and its hunks with their ids. */
export interface Listed {
  path: string
  file: TrackedFile
  current: string | undefined
  hunks: Hunk[]
  ids: string[]
}

type Decision = ParamsOf<"reviewDecide">["decisions"][number]

/** What decision `decision` covers: files with their hunks, or why none. */
export function targetsOf(listed: Listed[], decision: Decision): { entry: Listed; hunks: Hunk[] }[] | string {
  if (decision.all) return listed.map((entry) => ({ entry, hunks: entry.hunks }))
  if (decision.hunkId) {
    for (const entry of listed) {
      const i = entry.ids.indexOf(decision.hunkId)
      if (i >= 0) return [{ entry, hunks: [entry.hunks[i]!] }]
    }
    return `No unreviewed hunk "${decision.hunkId}": it was decided already, or its text changed since it was listed. List the changes again (agent/reviewChanges).`
  }
  if (decision.uri) {
    const path = safePath(decision.uri)
    const entry = listed.find((e) => e.path === path)
    return entry ? [{ entry, hunks: entry.hunks }] : `${decision.uri} has no unreviewed changes in this task.`
  }
  return "A decision names a hunkId, a uri, or all: true."
}

/** The text a file gets when `hunks` are rejected (undefined: delete it), or why it cannot be done. */
export function rejectedText(entry: Listed, hunks: Hunk[], whole: boolean): string | undefined | { reason: string } {
  const { file, current } = entry
  if (file.baseline === undefined) {
    if (!whole) return { reason: "a created file is rejected whole (its uri), not hunk by hunk." }
    if (current !== file.agentText)
      return { reason: "the file was edited since the agent wrote it, so it was not deleted; delete it yourself or keep it." }
    return undefined
  }
  if (current === undefined || whole) return file.baseline
  return [...hunks].reverse().reduce((text, h) => rejectHunk(text, h), current)
}

function safePath(uri: string): string | undefined {
  try {
    return fileURLToPath(uri)
  } catch {
    return undefined
  }
}
