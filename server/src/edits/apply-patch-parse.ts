import { toLf } from "./lines"

/** One line of an Update File hunk. */
export interface HunkLine {
  kind: " " | "-" | "+"
  text: string
}

/** An `@@` section of an Update File. */
export interface PatchHunk {
  /** Text after `@@` (a class or function line to find first), if any. */
  context?: string
  lines: HunkLine[]
  /** `*** End of File`: the hunk's old lines end the file. */
  endOfFile: boolean
}

/** One file operation of an apply_patch call. */
export type PatchOperation =
  | { type: "add"; path: string; content: string }
  | { type: "delete"; path: string }
  | { type: "update"; path: string; moveTo?: string; hunks: PatchHunk[] }

export type ParsePatchResult = { ok: true; operations: PatchOperation[] } | { ok: false; error: string }

const BEGIN = "*** Begin Patch"
const END = "*** End Patch"
const ADD = "*** Add File: "
const DELETE = "*** Delete File: "
const UPDATE = "*** Update File: "
const MOVE = "*** Move to: "
const EOF_MARK = "*** End of File"

export const PATCH_FORMAT = `*** Begin Patch
*** Add File: path/new.txt
+first line
*** Update File: path/old.py
*** Move to: path/renamed.py   (optional)
@@ def greet():
 context line
-removed line
+added line
*** Delete File: path/obsolete.txt
*** End Patch`

/** Parses the apply_patch format (`*** Begin Patch` … `*** End Patch`). Pure; paths are returned as written. */
export function parsePatch(patch: string): ParsePatchResult {
  const lines = toLf(patch).trim().split("\n")
  if (lines[0]?.trim() !== BEGIN) return fail(`The patch must start with "${BEGIN}". Format:\n${PATCH_FORMAT}`)
  const endAt = lines.findIndex((l, i) => i > 0 && l.trim() === END)
  if (endAt === -1) return fail(`The patch must end with "${END}". Format:\n${PATCH_FORMAT}`)
  const body = lines.slice(1, endAt)
  const operations: PatchOperation[] = []
  let i = 0
  while (i < body.length) {
    const line = body[i]!
    if (line.startsWith(ADD)) {
      const path = line.slice(ADD.length).trim()
      const content: string[] = []
      for (i++; i < body.length && !body[i]!.startsWith("*** "); i++) {
        if (!body[i]!.startsWith("+"))
          return fail(`In "${ADD}${path}", line "${body[i]}" does not start with "+": every line of a new file must be written as +line.`)
        content.push(body[i]!.slice(1))
      }
      operations.push({ type: "add", path, content: content.length ? `${content.join("\n")}\n` : "" })
    } else if (line.startsWith(DELETE)) {
      operations.push({ type: "delete", path: line.slice(DELETE.length).trim() })
      i++
    } else if (line.startsWith(UPDATE)) {
      const path = line.slice(UPDATE.length).trim()
      i++
      let moveTo: string | undefined
      if (body[i]?.startsWith(MOVE)) moveTo = body[i++]!.slice(MOVE.length).trim()
      const hunks: PatchHunk[] = []
      let hunk: PatchHunk | undefined
      for (; i < body.length && (!body[i]!.startsWith("*** ") || body[i] === EOF_MARK); i++) {
        const content = body[i]!
        if (content === EOF_MARK) {
          if (!hunk) return fail(`In "${UPDATE}${path}", "${EOF_MARK}" comes before any hunk.`)
          hunk.endOfFile = true
          continue
        }
        if (content.startsWith("@@")) {
          const context = content.slice(2).trim()
          hunk = { lines: [], endOfFile: false, ...(context ? { context } : {}) }
          hunks.push(hunk)
          continue
        }
        if (!hunk) {
          // The first hunk may omit its @@ line.
          hunk = { lines: [], endOfFile: false }
          hunks.push(hunk)
        }
        const kind = content[0]
        if (content === "") hunk.lines.push({ kind: " ", text: "" })
        else if (kind === " " || kind === "-" || kind === "+") hunk.lines.push({ kind, text: content.slice(1) })
        else return fail(`In "${UPDATE}${path}", line "${content}" must start with " " (context), "-" (remove) or "+" (add).`)
      }
      const empty = hunks.findIndex((h) => h.lines.length === 0)
      if (empty !== -1) return fail(`In "${UPDATE}${path}", hunk ${empty + 1} has no lines. Each @@ needs context/-/+ lines after it.`)
      if (hunks.length === 0 && !moveTo) return fail(`"${UPDATE}${path}" has no hunks: add @@ sections with the lines to change.`)
      operations.push({ type: "update", path, hunks, ...(moveTo ? { moveTo } : {}) })
    } else if (line.trim() === "") {
      i++
    } else {
      return fail(`Unexpected line "${line}": expected "${ADD}", "${DELETE}" or "${UPDATE}" followed by a path. Format:\n${PATCH_FORMAT}`)
    }
  }
  if (operations.length === 0) return fail(`The patch has no file operations. Format:\n${PATCH_FORMAT}`)
  const missing = operations.find((op) => op.path === "")
  if (missing)
    return fail(`A "*** ${missing.type === "add" ? "Add" : missing.type === "delete" ? "Delete" : "Update"} File:" line has no path.`)
  return { ok: true, operations }
}

/** Every path a patch touches, including Move-to targets (for the mode's fileRegex). */
export function patchPaths(operations: PatchOperation[]): string[] {
  return operations.flatMap((op) => (op.type === "update" && op.moveTo ? [op.path, op.moveTo] : [op.path]))
}

function fail(error: string): ParsePatchResult {
  return { ok: false, error }
}
