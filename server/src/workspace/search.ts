import { type ChildProcessByStdio, spawn } from "node:child_process"
import { closeSync, constants, fstatSync, openSync, readlinkSync } from "node:fs"
import type { Confine } from "../config/regular-file"
import { withoutSecrets } from "../config/secrets"
import type { Readable } from "node:stream"
import { join } from "node:path"
import { isIgnored, ROOIGNORE_FILE, rulesFor } from "./ignore-rules"
import { containingRoot } from "./sandbox"
import { boundedLines } from "../config/bounded-lines"
import { cutLine } from "./line-slice"

/**
 * search_files' engine: `rg --json` with one line of context, parsed as it streams, `.rooignore`d files
 * dropped, stopped (rg killed) once the match cap is reached. rg is also given the `.rooignore` as an
 * ignore file, so it does not read blocked trees at all (a blocked folder of 30k files cost the whole
 * search before); the filter on its output stays, as the rule that holds.
 */

export interface SearchOptions {
  rgPath: string
  /** Absolute folder (or file) to search. */
  target: string
  regex: string
  /** rg --glob, e.g. "*.ts". */
  filePattern?: string
  /** Most matching lines returned; the search stops past it. */
  maxMatches: number
  workspaceFolders: readonly string[]
  signal?: AbortSignal
  /** Checks where `target` really is once opened (guard.ts readConfinement); see pinTarget. */
  confine?: Confine
}

export interface SearchLine {
  line: number
  text: string
  isMatch: boolean
}

export interface SearchFileResult {
  absPath: string
  lines: SearchLine[]
}

export type SearchOutcome =
  /** `longLines`: matching lines left out for being longer than MAX_RG_LINE_BYTES (as rg's JSON). */
  { ok: true; files: SearchFileResult[]; matchCount: number; capped: boolean; longLines: number } | { ok: false; message: string }

/** The longest line of rg's JSON output read: a matching line of about this size (less when escaped). */
export const MAX_RG_LINE_BYTES = 1024 * 1024

interface RgText {
  text?: string
  bytes?: string
}

/** What rg is given: its path argument, its working directory, the descriptor it inherits, and how to read its paths back. */
type Pinned = { arg: string; cwd?: string; fd?: number; unpin: (path: string) => string } | { refused: string }

const PINNED = "/proc/self/fd/3"

/**
 * rg follows a symbolic link given as its path argument, so a folder swapped for a link after the path was
 * checked would be searched wherever it leads. On Linux the target is opened here, checked where it really is
 * (`confine`), and handed to rg as its descriptor 3: a folder as rg's working directory (`.`), a file as
 * /proc/self/fd/3. A swap after the open changes nothing. rg's paths are mapped back to the target's. (In a
 * subfolder, `.rooignore` patterns anchored at the root no longer spare rg the reading; the filter on its
 * output still drops those files.)
 */
function pinTarget(target: string, confine: Confine | undefined): Pinned {
  const plain = { arg: target, unpin: (path: string) => path }
  if (process.platform !== "linux" || !confine) return plain
  let fd: number
  try {
    fd = openSync(target, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    // It was there when the tool looked: gone now means changed, and rg given the path would follow what replaced it.
    return { refused: `${target} could not be opened for the search (${(error as NodeJS.ErrnoException).code}). Check it with list_files.` }
  }
  const refused = confine(readlinkSync(`/proc/self/fd/${fd}`))
  if (refused) {
    closeSync(fd)
    return { refused }
  }
  if (!fstatSync(fd).isDirectory()) return { arg: PINNED, fd, unpin: (path) => (path === PINNED ? target : path) }
  return { arg: ".", cwd: PINNED, fd, unpin: (path) => join(target, path) }
}

/** Runs the search. A bad regex comes back as `{ ok: false }` with rg's explanation. */
export function runSearch(options: SearchOptions): Promise<SearchOutcome> {
  const args = ["--json", "--no-config", "--no-require-git", "--context", "1", "--regexp", options.regex]
  if (options.filePattern) args.push("--glob", options.filePattern)
  // rg matches an ignore file's patterns against paths relative to its working directory: the folder root.
  const root = containingRoot(options.workspaceFolders, options.target)
  if (root && rulesFor(root)) args.push("--ignore-file", join(root, ROOIGNORE_FILE))
  const pinned = pinTarget(options.target, options.confine)
  if ("refused" in pinned) return Promise.resolve({ ok: false, message: pinned.refused })
  args.push("--", pinned.arg)
  return new Promise((resolvePromise) => {
    // Descriptor 3 is the pinned target, where there is one; stdout and stderr are pipes either way.
    const child = spawn(options.rgPath, args, {
      cwd: pinned.cwd ?? root,
      stdio: ["ignore", "pipe", "pipe", ...(pinned.fd === undefined ? [] : [pinned.fd])],
      env: withoutSecrets(process.env),
    }) as ChildProcessByStdio<null, Readable, Readable>
    if (pinned.fd !== undefined) closeSync(pinned.fd)
    const files: SearchFileResult[] = []
    let current: SearchFileResult | undefined
    let matchCount = 0
    let capped = false
    let longLines = 0
    let stderr = ""
    let settled = false
    const finish = (outcome: SearchOutcome) => {
      if (settled) return
      settled = true
      options.signal?.removeEventListener("abort", onAbort)
      resolvePromise(outcome)
    }
    const onAbort = () => {
      child.kill("SIGKILL")
      finish({ ok: false, message: "The search was cancelled." })
    }
    options.signal?.addEventListener("abort", onAbort, { once: true })
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString("utf8")
    })
    child.on("error", (error) => finish({ ok: false, message: `Could not run ripgrep (${options.rgPath}): ${error.message}` }))

    const onLine = (raw: string) => {
      let message: { type: string; data: { path?: RgText; line_number?: number; lines?: RgText } }
      try {
        message = JSON.parse(raw)
      } catch {
        return
      }
      const { type, data } = message
      if (type === "begin") {
        const absPath = pinned.unpin(decode(data.path))
        current = isIgnored(options.workspaceFolders, absPath) ? undefined : { absPath, lines: [] }
        if (current) files.push(current)
      } else if ((type === "match" || type === "context") && current && data.line_number !== undefined) {
        if (type === "match") {
          if (matchCount >= options.maxMatches) {
            capped = true
            child.kill("SIGTERM")
            return
          }
          matchCount++
        }
        const text = decode(data.lines).replace(/\r?\n$/, "")
        current.lines.push({ line: data.line_number, text, isMatch: type === "match" })
      } else if (type === "end") {
        current = undefined
      }
    }
    // rg's --json ignores --max-columns: a matching line of a minified or data file comes whole (escaped), so
    // its JSON line is only read up to MAX_RG_LINE_BYTES; a longer one is left out and counted.
    const read = (async () => {
      for await (const { text, cutBytes } of boundedLines(child.stdout, MAX_RG_LINE_BYTES)) {
        if (capped) continue
        if (cutBytes > 0) longLines++
        else onLine(text)
      }
    })().catch(() => undefined)
    const exited = new Promise<number | null>((resolveExit) => child.on("close", (code) => resolveExit(code)))
    void Promise.all([read, exited]).then(([, code]) => {
      // rg searches in parallel, so files come in no fixed order: sort them for a stable answer.
      const kept = files
        .filter((f) => f.lines.some((l) => l.isMatch))
        .sort((a, b) => (a.absPath < b.absPath ? -1 : a.absPath > b.absPath ? 1 : 0))
      if (capped || code === 0 || code === 1) return finish({ ok: true, files: kept, matchCount, capped, longLines })
      const detail = stderr.trim() || `ripgrep exited with code ${code}`
      finish({
        ok: false,
        message: `The search failed: ${detail}\nsearch_files takes a Rust regex (like JavaScript's, without look-around or backreferences).`,
      })
    })
  })
}

/** The model's view: grouped by file, `N | text`, lines cut at 500 characters, gaps marked with "----". */
export function formatSearch(files: SearchFileResult[], show: (absPath: string) => string, maxLineChars = 500): string {
  const out: string[] = []
  for (const file of files) {
    out.push(`# ${show(file.absPath)}`)
    let previous: number | undefined
    for (const line of dedupe(file.lines)) {
      if (previous !== undefined && line.line > previous + 1) out.push("----")
      out.push(`${line.line} | ${cutLine(line.text, maxLineChars)}`)
      previous = line.line
    }
    out.push("")
  }
  return out.join("\n").trimEnd()
}

function dedupe(lines: SearchLine[]): SearchLine[] {
  const byLine = new Map<number, SearchLine>()
  for (const l of lines) if (!byLine.has(l.line) || l.isMatch) byLine.set(l.line, l)
  return [...byLine.values()].sort((a, b) => a.line - b.line)
}

function decode(value: RgText | undefined): string {
  if (!value) return ""
  if (value.text !== undefined) return value.text
  return value.bytes ? Buffer.from(value.bytes, "base64").toString("utf8") : ""
}
