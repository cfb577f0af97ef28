import { stat } from "node:fs/promises"
import { readRegularFile, specialKind } from "../config/regular-file"
import { readConfinement } from "./guard"

/**
 * File access for tools: an open editor buffer wins over the disk (the user may have unsaved changes the
 * model must see), binary files are refused with a clear message, and whole-file reads are capped.
 */

/**
 * An open editor buffer as the reader needs it. Structurally the `OpenDocument` of tools/context.ts, which
 * workspace/ may not import (DESIGN.md: workspace/ imports config/ only).
 */
export interface OpenBuffer {
  path: string
  uri: string
  version: number
  text: string
  dirtyByUser: boolean
}

/** What the reader needs from a ToolContext (a ToolContext satisfies it). */
export interface FilesContext {
  readonly editor: { openDocument(path: string): OpenBuffer | undefined; readDocument?(path: string): Promise<OpenBuffer | undefined> }
  readonly settings: { readonly files: { readonly maxReadBytes: number; readonly readOutsideWorkspace?: boolean } }
  /** Where given (a ToolContext), the file actually opened must pass the path guard too (readConfinementOf). */
  readonly workspaceFolders?: readonly string[]
}

/** The check of the file actually opened (guard.ts readConfinement) for a context that names its folders. */
export function readConfinementOf(ctx: FilesContext, shown: string) {
  if (!ctx.workspaceFolders) return undefined
  const readOutsideWorkspace = ctx.settings.files.readOutsideWorkspace ?? false
  return readConfinement({ workspaceFolders: ctx.workspaceFolders, settings: { files: { readOutsideWorkspace } } }, shown)
}

export type ReadTextResult =
  | {
      kind: "text"
      text: string
      /** "buffer" = the editor's open document (maybe unsaved), "disk" = the file. */
      source: "buffer" | "disk"
      /** The open document when source is "buffer" (its version is what edits are versioned against). */
      document?: OpenBuffer
    }
  | { kind: "missing"; message: string }
  | { kind: "directory"; message: string }
  | { kind: "binary"; message: string }
  | { kind: "tooLarge"; size: number; message: string }
  | { kind: "error"; message: string }

/** Bytes looked at for a NUL byte (git looks at the first 8000 too). */
export const BINARY_SNIFF_BYTES = 8000

/**
 * The editor's text of a file: from an editor that serves file contents itself (ACP fs/read_text_file), else
 * its open buffer; undefined = read the disk. Edits read their base text and re-check it through this.
 */
export async function editorDocument(editor: FilesContext["editor"], absPath: string): Promise<OpenBuffer | undefined> {
  return (editor.readDocument ? await editor.readDocument(absPath) : undefined) ?? editor.openDocument(absPath)
}

/**
 * Reads a text file for a tool: the editor's text (see editorDocument) if it has one, else the disk.
 * `shown` is the path as the model should see it in messages. `maxBytes` overrides files.maxReadBytes.
 */
export async function readTextFile(ctx: FilesContext, absPath: string, shown = absPath, maxBytes?: number): Promise<ReadTextResult> {
  const document = await editorDocument(ctx.editor, absPath)
  if (document) {
    if (looksBinary(Buffer.from(document.text.slice(0, BINARY_SNIFF_BYTES)))) return binaryProblem(shown)
    return { kind: "text", text: document.text, source: "buffer", document }
  }
  const limit = maxBytes ?? ctx.settings.files.maxReadBytes
  const info = await statOrProblem(absPath, shown)
  if ("kind" in info) return info
  if (info.size > limit) {
    return {
      kind: "tooLarge",
      size: info.size,
      message:
        `File ${shown} is ${formatBytes(info.size)}, over the ${formatBytes(limit)} limit for reading it whole (agent.files.maxReadBytes). ` +
        `Read a part with read_file offset/limit, or find what you need with search_files.`,
    }
  }
  try {
    const bytes = await readRegularFile(absPath, readConfinementOf(ctx, shown))
    if (looksBinary(bytes)) return binaryProblem(shown)
    return { kind: "text", text: bytes.toString("utf8"), source: "disk" }
  } catch (error) {
    return { kind: "error", message: `Could not read ${shown}: ${(error as Error).message}` }
  }
}

/**
 * For edit tools: the current text, or undefined when the file does not exist (and is not open).
 * Other problems (directory, binary, too large, unreadable) come back as `{ problem }`.
 */
export async function readTextIfExists(
  ctx: FilesContext,
  absPath: string,
  shown = absPath,
): Promise<{ text: string; document?: OpenBuffer } | undefined | { problem: string }> {
  const result = await readTextFile(ctx, absPath, shown)
  if (result.kind === "text") return { text: result.text, document: result.document }
  if (result.kind === "missing") return undefined
  return { problem: result.message }
}

/** True when the bytes hold a NUL byte in their first BINARY_SNIFF_BYTES (how git tells binary files). */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES)
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true
  return false
}

/** Stat that turns the usual failures into messages for the model. */
export async function statOrProblem(
  absPath: string,
  shown: string,
): Promise<{ size: number; isDirectory: false } | Extract<ReadTextResult, { kind: "missing" | "directory" | "error" }>> {
  try {
    const info = await stat(absPath)
    if (info.isDirectory())
      return { kind: "directory", message: `${shown} is a directory, not a file. Use list_files to see what it contains.` }
    const kind = specialKind(info)
    if (kind)
      return { kind: "error", message: `${shown} is ${kind}, not a regular file: the agent reads only regular files. Leave it alone.` }
    return { size: info.size, isDirectory: false }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === "ENOENT" || code === "ENOTDIR") {
      return { kind: "missing", message: `File not found: ${shown}. Check the path with list_files or search_files.` }
    }
    return { kind: "error", message: `Could not read ${shown}: ${(error as Error).message}` }
  }
}

export function binaryProblem(shown: string): Extract<ReadTextResult, { kind: "binary" }> {
  return {
    kind: "binary",
    message: `${shown} is a binary file (it contains NUL bytes), so it cannot be read as text. Images (png, jpg, gif, webp) can be read with read_file.`,
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
