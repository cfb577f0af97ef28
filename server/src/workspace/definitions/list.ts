import { readdir } from "node:fs/promises"
import { join } from "node:path"
import { readTextFile, type FilesContext } from "../files"
import { isIgnored } from "../ignore-rules"
import type { Definition } from "./extract"
import { languageFor, SUPPORTED_EXTENSIONS } from "./languages"
import { extractDefinitionsOutOfProcess } from "./out-of-process"

/** Most files of a folder that one call parses (Roo-Code looks at a folder's top level only, too). */
export const MAX_FOLDER_FILES = 50

export interface FileDefinitions {
  absPath: string
  lines: string[]
  definitions: Definition[]
}

export type DefinitionsOutcome = { ok: true; files: FileDefinitions[]; skippedFiles: number } | { ok: false; message: string }

const supportedList = () => SUPPORTED_EXTENSIONS.join(", ")

/** Definitions of one file; an unsupported language is an error naming the supported ones. */
export async function fileDefinitions(ctx: FilesContext, absPath: string, shown: string): Promise<DefinitionsOutcome> {
  const language = languageFor(absPath)
  if (!language) {
    return {
      ok: false,
      message: `list_code_definition_names has no grammar for ${shown}. Supported: ${supportedList()}. Use read_file (mode 'indentation' helps) or search_files instead.`,
    }
  }
  const file = await readTextFile(ctx, absPath, shown)
  if (file.kind !== "text") return { ok: false, message: file.message }
  let definitions: Definition[]
  try {
    // Out of process: the grammars' memory must not stay in the server for its whole life.
    definitions = await extractDefinitionsOutOfProcess(file.text, language.spec)
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    return {
      ok: false,
      message: `Could not parse ${shown} for definitions (${why}). Use read_file (mode 'indentation' helps) or search_files instead.`,
    }
  }
  return { ok: true, files: [{ absPath, lines: file.text.split("\n"), definitions }], skippedFiles: 0 }
}

/** Definitions of the supported source files directly in a folder (not recursive), .rooignore respected. */
export async function folderDefinitions(
  ctx: FilesContext,
  workspaceFolders: readonly string[],
  dir: string,
  shown: string,
): Promise<DefinitionsOutcome> {
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isFile() && languageFor(e.name) && !isIgnored(workspaceFolders, join(dir, e.name)))
    .map((e) => e.name)
    .sort()
  if (entries.length === 0) {
    return {
      ok: false,
      message: `No source files list_code_definition_names can parse directly in ${shown} (it looks at the folder's own files, not subfolders). Supported: ${supportedList()}. Try a subfolder (list_files shows them) or a file.`,
    }
  }
  const files: FileDefinitions[] = []
  for (const name of entries.slice(0, MAX_FOLDER_FILES)) {
    const result = await fileDefinitions(ctx, join(dir, name), name)
    if (result.ok) files.push(...result.files)
  }
  return { ok: true, files, skippedFiles: Math.max(0, entries.length - MAX_FOLDER_FILES) }
}

/** `start--end | first line` per definition, grouped by file. */
export function formatDefinitions(files: FileDefinitions[], show: (absPath: string) => string): string {
  const out: string[] = []
  for (const file of files) {
    if (file.definitions.length === 0) continue
    out.push(`# ${show(file.absPath)}`)
    const seen = new Set<string>()
    for (const d of file.definitions) {
      const key = `${d.startLine}:${d.endLine}`
      if (seen.has(key)) continue
      seen.add(key)
      const first = (file.lines[d.startLine - 1] ?? d.name).replace(/\r$/, "").trimEnd()
      out.push(`${d.startLine}--${d.endLine} | ${first.length > 200 ? `${first.slice(0, 200)}…` : first}`)
    }
    out.push("")
  }
  return out.join("\n").trimEnd()
}
