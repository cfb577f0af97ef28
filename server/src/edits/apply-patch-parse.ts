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

/**
 * Parses the apply_patch format (`*** Begin Patch` … `*** End Patch`) as Codex reads it: markers may carry
 * surrounding spaces, a heredoc wrapper (`<<'EOF'` … `EOF`) is taken off, blank lines between hunks and
 * after `*** End of File` are skipped. Text after `*** End Patch` is refused, never dropped. Pure; paths are
 * returned as written.
 */
export function parsePatch(patch: string): ParsePatchResult {
  const lines = unwrapHeredoc(toLf(patch).trim().split("\n"))
  if (lines[0]?.trim() !== BEGIN) return fail(`The patch must start with "${BEGIN}". Format:\n${PATCH_FORMAT}`)
  const endAt = lines.findIndex((l, i) => i > 0 && l.trim() === END)
  if (endAt === -1) return fail(`The patch must end with "${END}". Format:\n${PATCH_FORMAT}`)
  if (endAt !== lines.length - 1)
    return fail(
      `The patch goes on after "${END}" (line ${endAt + 1} of ${lines.length}): nothing after it would be applied. Send one patch per call, with every file operation between one "${BEGIN}" and one "${END}".`,
    )
  const body = lines.slice(1, endAt)
  const operations: PatchOperation[] = []
  let i = 0
  while (i < body.length) {
    // Headers between operations may be indented (models indent patches quoted in prose).
    const line = body[i]!.trim()
    if (line.startsWith(ADD)) {
      const path = line.slice(ADD.length).trim()
      const content: string[] = []
      for (i++; i < body.length && !isHeader(body[i]!); i++) {
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
      if (body[i]?.trim().startsWith(MOVE)) moveTo = body[i++]!.trim().slice(MOVE.length).trim()
      const read = readHunks(body, i, path)
      if ("error" in read) return fail(read.error)
      i = read.next
      const { hunks } = read
      const empty = hunks.findIndex((h) => h.lines.length === 0)
      if (empty !== -1) return fail(`In "${UPDATE}${path}", hunk ${empty + 1} has no lines. Each @@ needs context/-/+ lines after it.`)
      if (hunks.length === 0 && !moveTo) return fail(`"${UPDATE}${path}" has no hunks: add @@ sections with the lines to change.`)
      operations.push({ type: "update", path, hunks, ...(moveTo ? { moveTo } : {}) })
    } else if (line === "") {
      i++
    } else {
      return fail(
        `Unexpected line "${body[i]}": expected "${ADD}", "${DELETE}" or "${UPDATE}" followed by a path. Format:\n${PATCH_FORMAT}`,
      )
    }
  }
  if (operations.length === 0) return fail(`The patch has no file operations. Format:\n${PATCH_FORMAT}`)
  const missing = operations.find((op) => op.path === "")
  if (missing)
    return fail(`A "*** ${missing.type === "add" ? "Add" : missing.type === "delete" ? "Delete" : "Update"} File:" line has no path.`)
  return { ok: true, operations }
}

/**
 * Reads an Update File's hunks from `body[from]` up to the next file header. Inside a hunk a line that
 * starts with a space is context even when it reads like a header (a patch to a file about patches).
 */
function readHunks(body: string[], from: number, path: string): { hunks: PatchHunk[]; next: number } | { error: string } {
  const hunks: PatchHunk[] = []
  // The hunk lines go to; undefined between hunks (before the first, after "*** End of File").
  let hunk: PatchHunk | undefined
  let i = from
  for (; i < body.length; i++) {
    const content = body[i]!
    if (content.trimEnd() === EOF_MARK) {
      if (!hunk) return { error: `In "${UPDATE}${path}", "${EOF_MARK}" comes before any hunk.` }
      hunk.endOfFile = true
      hunk = undefined
      continue
    }
    if (content.startsWith("*** ") || (!hunk && isHeader(content))) break
    if (!hunk && content.trim() === "") continue
    if (content.trim().startsWith("@@") && (!hunk || content.startsWith("@@"))) {
      const context = content.trim().slice(2).trim()
      hunk = { lines: [], endOfFile: false, ...(context ? { context } : {}) }
      hunks.push(hunk)
      continue
    }
    if (!hunk) {
      if (hunks.length > 0)
        return { error: `In "${UPDATE}${path}", line "${content}" follows "${EOF_MARK}": start the next hunk with an @@ line.` }
      // The first hunk may omit its @@ line.
      hunk = { lines: [], endOfFile: false }
      hunks.push(hunk)
    }
    const kind = content[0]
    if (content === "") hunk.lines.push({ kind: " ", text: "" })
    else if (kind === " " || kind === "-" || kind === "+") hunk.lines.push({ kind, text: content.slice(1) })
    else return { error: `In "${UPDATE}${path}", line "${content}" must start with " " (context), "-" (remove) or "+" (add).` }
  }
  return { hunks, next: i }
}

/** A file header or the end marker, indented or not. */
function isHeader(line: string): boolean {
  const t = line.trim()
  return t.startsWith(ADD) || t.startsWith(DELETE) || t.startsWith(UPDATE) || t === END
}

/** Codex's lenient reading: a patch sent as `<<'EOF'` … `EOF` (a shell heredoc) is the patch inside. */
function unwrapHeredoc(lines: string[]): string[] {
  const first = lines[0]?.trim()
  const wrapped = (first === "<<EOF" || first === "<<'EOF'" || first === '<<"EOF"') && lines.length >= 4
  return wrapped && lines[lines.length - 1]!.trim().endsWith("EOF") ? lines.slice(1, -1) : lines
}

/** Every path a patch touches, including Move-to targets (for the mode's fileRegex). */
export function patchPaths(operations: PatchOperation[]): string[] {
  return operations.flatMap((op) => (op.type === "update" && op.moveTo ? [op.path, op.moveTo] : [op.path]))
}

function fail(error: string): ParsePatchResult {
  return { ok: false, error }
}
