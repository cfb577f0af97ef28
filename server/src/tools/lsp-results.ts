/**
 * The language servers' LSP results, read defensively (they come from another program, or from the
 * editor over the wire) into the few shapes the lsp tool prints: locations, symbols, hover text.
 */

import { fileURLToPath } from "node:url"

/** The path of a local `file:` URI; undefined for other schemes and for what fileURLToPath refuses (a host, an encoded `/`). */
export function localFilePath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined
  try {
    return fileURLToPath(uri)
  } catch {
    return undefined
  }
}

export interface LspPosition {
  line: number
  character: number
}
export interface LspRange {
  start: LspPosition
  end: LspPosition
}
/** A place in a file (zero-based, as LSP says it). */
export interface FoundLocation {
  uri: string
  range: LspRange
}
/** A symbol with its place; `children` for a document outline. */
export interface FoundSymbol {
  name: string
  kind: number
  detail?: string
  uri?: string
  range: LspRange
  children: FoundSymbol[]
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null
}

function isPosition(value: unknown): value is LspPosition {
  return isObject(value) && Number.isInteger(value.line) && Number.isInteger(value.character)
}

function isRange(value: unknown): value is LspRange {
  return isObject(value) && isPosition(value.start) && isPosition(value.end)
}

/** Lua clients encode an empty list as `{}`: read a bare object with no keys as an empty list. */
function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value
  if (isObject(value) && Object.keys(value).length === 0) return []
  return value === null || value === undefined ? [] : [value]
}

/** Location, Location[] or LocationLink[] (definition, implementation, references). */
export function toLocations(result: unknown): FoundLocation[] {
  const out: FoundLocation[] = []
  for (const item of asList(result)) {
    if (!isObject(item)) continue
    if (typeof item.uri === "string" && isRange(item.range)) out.push({ uri: item.uri, range: item.range })
    else if (typeof item.targetUri === "string") {
      const range = isRange(item.targetSelectionRange) ? item.targetSelectionRange : item.targetRange
      if (isRange(range)) out.push({ uri: item.targetUri, range })
    }
  }
  return out
}

/**
 * Call hierarchy answers as locations: for incoming calls, each call site (fromRanges in the caller's
 * file); for outgoing calls, each called function where it is declared.
 */
export function callLocations(result: unknown, direction: "incoming" | "outgoing"): FoundLocation[] {
  const out: FoundLocation[] = []
  for (const call of asList(result)) {
    if (!isObject(call)) continue
    const item = direction === "incoming" ? call.from : call.to
    if (!isObject(item) || typeof item.uri !== "string") continue
    if (direction === "incoming") {
      const ranges = asList(call.fromRanges).filter(isRange)
      for (const range of ranges.length ? ranges : [item.selectionRange].filter(isRange)) out.push({ uri: item.uri, range })
    } else {
      const range = isRange(item.selectionRange) ? item.selectionRange : item.range
      if (isRange(range)) out.push({ uri: item.uri, range })
    }
  }
  return out
}

/** DocumentSymbol[] (an outline), SymbolInformation[] or WorkspaceSymbol[] (flat, with their files). */
export function toSymbols(result: unknown): FoundSymbol[] {
  const out: FoundSymbol[] = []
  for (const item of asList(result)) {
    if (!isObject(item) || typeof item.name !== "string") continue
    const kind = typeof item.kind === "number" ? item.kind : 0
    const detail = typeof item.detail === "string" && item.detail !== "" ? item.detail : undefined
    if (isRange(item.range)) {
      out.push({ name: item.name, kind, ...(detail ? { detail } : {}), range: item.range, children: toSymbols(item.children) })
      continue
    }
    const location = item.location
    if (isObject(location) && typeof location.uri === "string") {
      const range = isRange(location.range) ? location.range : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }
      out.push({ name: item.name, kind, uri: location.uri, range, children: [] })
    }
  }
  return out
}

/** Hover contents (MarkupContent, MarkedString or MarkedString[]) as markdown, trimmed. */
export function hoverText(result: unknown): string {
  if (!isObject(result)) return ""
  const parts = asList(result.contents).map((part) => {
    if (typeof part === "string") return part
    if (isObject(part) && typeof part.value === "string")
      return typeof part.language === "string" ? `\`\`\`${part.language}\n${part.value}\n\`\`\`` : part.value
    return ""
  })
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .join("\n\n")
}

/** LSP SymbolKind numbers as words. */
const SYMBOL_KINDS = [
  "",
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
]

export function symbolKindName(kind: number): string {
  return SYMBOL_KINDS[kind] || "symbol"
}

/** One file's part of a WorkspaceEdit: its TextEdits and, for a TextDocumentEdit, the version they were made for. */
export interface FileTextEdits {
  uri: string
  edits: { range: LspRange; newText: string }[]
  version?: number
}

/**
 * A WorkspaceEdit (`changes` or `documentChanges`) as text edits per file; an error when it creates,
 * renames or deletes files (a symbol rename never should) or is malformed.
 */
export function workspaceEditFiles(result: unknown): { files: FileTextEdits[] } | { error: string } {
  if (!isObject(result)) return { files: [] }
  const byUri = new Map<string, FileTextEdits>()
  const add = (uri: string, edits: unknown, version?: unknown) => {
    const entry = byUri.get(uri) ?? { uri, edits: [] }
    if (typeof version === "number") entry.version = version
    for (const edit of asList(edits))
      if (isObject(edit) && isRange(edit.range) && typeof edit.newText === "string")
        entry.edits.push({ range: edit.range, newText: edit.newText })
      else return false
    byUri.set(uri, entry)
    return true
  }
  if (Array.isArray(result.documentChanges)) {
    for (const change of result.documentChanges) {
      if (!isObject(change)) return { error: "the language server's edit is malformed" }
      if (typeof change.kind === "string")
        return { error: `the language server's edit would ${change.kind} a file, which a rename does not do here` }
      const doc = change.textDocument
      if (!isObject(doc) || typeof doc.uri !== "string" || !add(doc.uri, change.edits, doc.version))
        return { error: "the language server's edit is malformed" }
    }
  } else if (isObject(result.changes)) {
    for (const [uri, edits] of Object.entries(result.changes))
      if (!add(uri, edits)) return { error: "the language server's edit is malformed" }
  }
  return { files: [...byUri.values()].filter((f) => f.edits.length > 0) }
}
