import type { OpenDocument, ToolContext } from "../context"
import { errorResult, type ToolResult } from "../tool"
import { formatBytes, readTextFile } from "../../workspace/files"
import { guardPath } from "../../workspace/guard"
import { displayPath } from "../../workspace/sandbox"

/** A file an edit tool is about to change, as it was when the edit was prepared. */
export interface EditTarget {
  /** Absolute path (the key of open editor buffers). */
  absPath: string
  /** Where the write lands (symlinks resolved): protected paths are checked on it too. */
  realPath: string
  /** The path as the model should see it. */
  shown: string
  /** The text the edit is computed from: the open buffer if any, else the disk; undefined = no such file. */
  before: string | undefined
  /** The open buffer the text came from, if the editor has the file open. */
  document?: OpenDocument
}

/**
 * Largest file the edit tools change. Edits read the whole file whatever agent.files.maxReadBytes (a cap
 * on what is put into the model's context) says, since only the diff reaches the model.
 */
export const EDIT_MAX_BYTES = 10 * 1024 * 1024

/** A failed edit: an error result that counts toward the consecutive-mistake limit. */
export function editFailure(text: string, summary?: string): ToolResult {
  return { ...errorResult(text, summary), countsAsMistake: true }
}

/**
 * Resolves a model-given path for writing (sandbox + .rooignore) and reads what the edit starts from.
 * `mustExist`: a missing file is an error naming the tool to create it with.
 */
export async function loadEditTarget(ctx: ToolContext, input: string, mustExist: boolean): Promise<EditTarget | { failure: ToolResult }> {
  const resolved = guardPath(ctx, input, "write")
  if (!resolved.ok) return { failure: editFailure(resolved.message) }
  const shown = displayPath(ctx.workspaceFolders, resolved.absPath)
  const current = await readTextFile(ctx, resolved.absPath, shown, EDIT_MAX_BYTES)
  if (current.kind === "missing") {
    if (mustExist)
      return {
        failure: editFailure(
          `File not found: ${shown}. This tool edits existing files: create a new file with write_to_file, or check the path with list_files.`,
        ),
      }
    return { absPath: resolved.absPath, realPath: resolved.realPath, shown, before: undefined }
  }
  if (current.kind === "tooLarge")
    return {
      failure: editFailure(
        `${shown} is ${formatBytes(current.size)}, over the ${formatBytes(EDIT_MAX_BYTES)} limit for files the agent edits. Edit it with a command (e.g. sed) or ask the user.`,
      ),
    }
  if (current.kind !== "text") return { failure: editFailure(current.message) }
  return {
    absPath: resolved.absPath,
    realPath: resolved.realPath,
    shown,
    before: current.text,
    ...(current.document ? { document: current.document } : {}),
  }
}

export function isFailure<T extends object>(value: T | { failure: ToolResult }): value is { failure: ToolResult } {
  return "failure" in value
}
