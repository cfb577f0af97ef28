import { readIndexTexts } from "../../checkpoints/user-index"
import { isInside } from "../../workspace/sandbox"
import { keepHunk, lineHunks } from "./hunks"
import type { TrackedFile } from "./review-store"
import { holdsText, storedTextOf } from "./stored-texts"

/**
 * Staging or committing a hunk in git counts as keeping it (as in Zed's action log): where the git index
 * holds a file whose change from the baseline is exactly one of the review's hunks (same baseline lines,
 * same new text), that hunk moves into the baseline. This reads what the index holds for the tracked files
 * (only where it differs from the baseline); it needs no file's text now, so a listing runs it (a git
 * process) while it reads the files. keepStagedHunks then applies it.
 */
export async function stagedTexts(
  folders: readonly string[],
  files: Map<string, TrackedFile>,
  log: (message: string) => void,
): Promise<Map<string, string>> {
  const staged = new Map<string, string>()
  for (const folder of folders) {
    const paths = [...files.keys()].filter((p) => isInside(folder, p) && holdsText(files.get(p)!, "baseline"))
    if (paths.length === 0) continue
    const index = await readIndexTexts(folder, paths, (p) => baselineOf(files.get(p))).catch((e) => {
      log(`review: reading the git index of ${folder} failed: ${String(e)}`)
      return new Map<string, string>()
    })
    for (const [path, text] of index) staged.set(path, text)
  }
  return staged
}

/** The file's baseline for comparing with the index: its stored bytes while it has not been decoded (stored-texts.ts). */
function baselineOf(file: TrackedFile | undefined): string | Uint8Array | undefined {
  if (!file) return undefined
  const stored = storedTextOf(file, "baseline")
  return stored ? stored.texts.bytes(stored.index) : file.baseline
}

/** Moves each hunk the index holds (`staged`, from stagedTexts) into its file's baseline. Returns the paths whose baseline changed. */
export function keepStagedHunks(
  staged: Map<string, string>,
  files: Map<string, TrackedFile>,
  current: Map<string, string | undefined>,
): string[] {
  const changed: string[] = []
  for (const [path, text] of staged) {
    const file = files.get(path)
    const now = current.get(path)
    const baseline = file?.baseline
    if (!file || baseline === undefined || now === undefined || text === baseline) continue
    const committed = lineHunks(baseline, text)
    const review = lineHunks(baseline, now)
    let next = baseline
    // Bottom up, so the baseline positions of the hunks above stay valid.
    for (const hunk of [...review].reverse()) {
      const match = committed.some(
        (c) => c.oldStart === hunk.oldStart && c.oldLines.length === hunk.oldLines.length && c.newLines.join("") === hunk.newLines.join(""),
      )
      if (match) next = keepHunk(next, hunk)
    }
    if (next !== baseline) {
      file.baseline = next
      changed.push(path)
    }
  }
  return changed
}
