import type { ToolContext } from "./context"
import { readTextFile } from "../workspace/files"
import { guardPath } from "../workspace/guard"
import { displayPath } from "../workspace/sandbox"
import { localFilePath, symbolKindName, type FoundLocation, type FoundSymbol } from "./lsp-results"

/** Source lines are cut here: a location's line is context, not content. */
const MAX_LINE_CHARS = 160

/** Where a result's file is, as the model sees it; undefined when it must be left out. */
type Place = { absPath: string; shown: string } | undefined

/**
 * Decides, once per file, whether results in it may be shown: inside the workspace (symlinks resolved) and
 * not `.rooignore`d, exactly the check a write would get; everything else is left out and counted.
 */
export class ResultFiles {
  private readonly places = new Map<string, Place>()
  private readonly lines = new Map<string, string[] | undefined>()
  leftOut = 0

  constructor(private readonly ctx: ToolContext) {}

  place(uri: string): Place {
    if (this.places.has(uri)) return this.places.get(uri)
    const absPath = localFilePath(uri)
    const guarded = absPath ? guardPath(this.ctx, absPath, "write") : undefined
    const place: Place = guarded?.ok
      ? { absPath: guarded.absPath, shown: displayPath(this.ctx.workspaceFolders, guarded.absPath) }
      : undefined
    this.places.set(uri, place)
    return place
  }

  /** The file's line (zero-based), trimmed and cut; "" when it cannot be read. */
  async line(absPath: string, line: number): Promise<string> {
    if (!this.lines.has(absPath)) {
      const read = await readTextFile(this.ctx, absPath, absPath, this.ctx.settings.files.maxReadBytes * 4).catch(() => undefined)
      this.lines.set(absPath, read?.kind === "text" ? read.text.split(/\r?\n/) : undefined)
    }
    const text = (this.lines.get(absPath)?.[line] ?? "").trim()
    return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS - 3)}...` : text
  }

  /** "N left out (...)" for the end of a result, or "" when nothing was. */
  leftOutNote(): string {
    return this.leftOut ? `\n(${this.leftOut} left out: outside the workspace or .rooignore'd)` : ""
  }
}

/** `path:line:character  source line`, grouped by file (a blank line between files), at most `max`. */
export async function formatLocations(
  files: ResultFiles,
  locations: FoundLocation[],
  max: number,
): Promise<{ text: string; count: number }> {
  const byFile = new Map<string, { place: NonNullable<Place>; starts: Map<string, FoundLocation["range"]["start"]> }>()
  for (const location of locations) {
    const place = files.place(location.uri)
    if (!place) {
      files.leftOut++
      continue
    }
    const entry = byFile.get(place.absPath) ?? { place, starts: new Map() }
    byFile.set(place.absPath, entry)
    const start = location.range.start
    entry.starts.set(`${start.line}:${start.character}`, start)
  }
  const groups: string[] = []
  let shown = 0
  let total = 0
  for (const { place, starts } of byFile.values()) {
    const sorted = [...starts.values()].sort((a, b) => a.line - b.line || a.character - b.character)
    total += sorted.length
    const lines: string[] = []
    for (const start of sorted) {
      if (shown >= max) break
      shown++
      lines.push(`${place.shown}:${start.line + 1}:${start.character + 1}  ${await files.line(place.absPath, start.line)}`.trimEnd())
    }
    if (lines.length) groups.push(lines.join("\n"))
  }
  const more = total > shown ? `\n... ${total - shown} more (agent.lsp.maxResults is ${max})` : ""
  return { text: groups.join("\n\n") + more, count: total }
}

/** A document's symbols as an indented outline: `kind name  start-end` (1-based lines). */
export function formatOutline(symbols: FoundSymbol[], max: number): { text: string; count: number } {
  const lines: string[] = []
  let total = 0
  const walk = (list: FoundSymbol[], depth: number) => {
    const sorted = [...list].sort((a, b) => a.range.start.line - b.range.start.line)
    for (const symbol of sorted) {
      total++
      if (lines.length < max) lines.push(`${"  ".repeat(depth)}${symbolLine(symbol)}  ${lineRange(symbol)}`)
      walk(symbol.children, depth + 1)
    }
  }
  walk(symbols, 0)
  const more = total > lines.length ? `\n... ${total - lines.length} more (agent.lsp.maxResults is ${max})` : ""
  return { text: lines.join("\n") + more, count: total }
}

/** Workspace symbols: `kind name  path:line:character`, grouped by file, at most `max`. */
export function formatWorkspaceSymbols(files: ResultFiles, symbols: FoundSymbol[], max: number): { text: string; count: number } {
  const byFile = new Map<string, string[]>()
  let total = 0
  for (const symbol of symbols) {
    const place = symbol.uri ? files.place(symbol.uri) : undefined
    if (!place) {
      files.leftOut++
      continue
    }
    total++
    if (total > max) continue
    const start = symbol.range.start
    const lines = byFile.get(place.shown) ?? []
    lines.push(`${symbolLine(symbol)}  ${place.shown}:${start.line + 1}:${start.character + 1}`)
    byFile.set(place.shown, lines)
  }
  const more = total > max ? `\n... ${total - max} more (agent.lsp.maxResults is ${max})` : ""
  return { text: [...byFile.values()].map((l) => l.join("\n")).join("\n\n") + more, count: total }
}

function symbolLine(symbol: FoundSymbol): string {
  return `${symbolKindName(symbol.kind)} ${symbol.name}${symbol.detail ? ` ${symbol.detail}` : ""}`
}

function lineRange(symbol: FoundSymbol): string {
  const start = symbol.range.start.line + 1
  const end = symbol.range.end.line + 1
  return start === end ? `${start}` : `${start}-${end}`
}
