import { z } from "zod"
import { defineTool, errorResult, textResult } from "./tool"
import { guardPath } from "../workspace/guard"
import { formatBytes, readConfinementOf, statOrProblem } from "../workspace/files"
import { locateRipgrep } from "../workspace/ripgrep"
import { formatSearch, MAX_RG_LINE_BYTES, runSearch } from "../workspace/search"
import { displayPath } from "../workspace/sandbox"

/** Most matching lines one search returns. */
export const MAX_SEARCH_MATCHES = 300

const params = z.object({
  path: z.string().describe("Directory to search, recursively ('.' for the root)"),
  regex: z.string().min(1).describe("Regular expression to search for (Rust regex syntax)"),
  file_pattern: z.string().optional().describe("Glob limiting which files are searched, e.g. '*.ts' (default: all files)"),
})

const description = `Search file contents with ripgrep. \
Results are grouped by file, each match with one line of context as "N | text". Honours .gitignore; skips hidden files and \
what .rooignore blocks. At most ${MAX_SEARCH_MATCHES} matching lines are returned: narrow the regex, the path or file_pattern when \
the cap is hit.`

export const searchFiles = defineTool({
  name: "search_files",
  group: "read",
  params,
  description,
  available: () => true,
  async prepare({ path, regex, file_pattern }, ctx) {
    const guarded = guardPath(ctx, path, "read")
    if (!guarded.ok) return { result: errorResult(guarded.message) }
    const shown = guarded.root ? displayPath(ctx.workspaceFolders, guarded.absPath) : guarded.absPath
    const info = await statOrProblem(guarded.absPath, shown)
    if ("kind" in info && info.kind !== "directory")
      return {
        result: errorResult(info.kind === "missing" ? `Path not found: ${shown}. Use list_files to see what exists.` : info.message),
      }
    const rg = locateRipgrep(ctx.settings.search.ripgrepPath)
    if (!rg.ok) return { result: errorResult(rg.message) }

    const outcome = await runSearch({
      rgPath: rg.path,
      target: guarded.absPath,
      regex,
      filePattern: file_pattern,
      maxMatches: MAX_SEARCH_MATCHES,
      workspaceFolders: ctx.workspaceFolders,
      signal: ctx.signal,
      confine: readConfinementOf(ctx, shown),
    })
    if (!outcome.ok) return { result: errorResult(outcome.message) }
    const where = `${shown === "." ? "the workspace root" : shown}${file_pattern ? ` (files matching ${file_pattern})` : ""}`
    const show = (abs: string) => (guarded.root ? displayPath(ctx.workspaceFolders, abs) : abs)
    const long = outcome.longLines
      ? `\n\n(${plural(outcome.longLines, "line")} of matches or their context left out: each is over ${formatBytes(MAX_RG_LINE_BYTES)}, as in minified or data files. Read such a file with read_file, or exclude it with file_pattern.)`
      : ""
    let text: string
    if (outcome.matchCount === 0) text = `No matches for /${regex}/ in ${where}.${long}`
    else {
      const head = `Found ${plural(outcome.matchCount, "matching line")}${outcome.capped ? " (or more)" : ""} in ${plural(outcome.files.length, "file")} under ${where}.`
      const cap = outcome.capped
        ? `\n\n(Stopped at ${MAX_SEARCH_MATCHES} matching lines; there are more. Narrow the regex, search a subfolder, or set file_pattern.)`
        : ""
      text = `${head}\n\n${formatSearch(outcome.files, show)}${cap}${long}`
    }
    const summary = `Searched ${where} for /${regex}/: ${outcome.matchCount}${outcome.capped ? "+" : ""} matches`
    const result = textResult(text, summary)
    return {
      preview: {
        subject: guarded.outsideWorkspace ? { kind: "read", paths: [shown], outsideWorkspace: true } : { kind: "read", paths: [shown] },
        title: `Search ${where} for /${regex}/`,
        detail: summary,
      },
      run: async () => result,
    }
  },
})

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`
}
