import { relative, sep } from "node:path"
import type { DiagnosticsPort } from "../tools/context"
import { workspaceOverview } from "../tools/workspace-overview"
import { type KnownErrors, newErrors } from "./environment-errors"

/**
 * What the editor knows that helps the model start without a list_files turn: open buffers, the file the
 * user is in (and its selection, when the front knows it), and the files the user changed. A front that
 * knows none of it (the CLI) provides no port.
 */
export interface EnvironmentPort {
  /** Open buffers, absolute paths, most recently active first. */
  openFiles(): string[]
  /** The buffer the user is in, and the selected lines (1-based, inclusive) if the front knows them. */
  activeFile(): { path: string; selection?: { startLine: number; endLine: number } } | undefined
  /** Absolute paths the user (not the agent) changed since the last call; the call clears the list. */
  takeUserEdits(): string[]
}

/** Entries of the first-turn listing: enough to orient, small enough to cost little. */
export const FIRST_TURN_ENTRIES = 60
/** How the environment block starts (the transcript leaves such blocks out). */
export const ENVIRONMENT_OPEN = "<environment>"
const MAX_OPEN = 10
const MAX_EDITED = 10

/** The last environment a task was told about, so later turns say only what changed. */
export interface EnvironmentMemory {
  open: string
  active: string
  /** Errors known at the last turn (environment-errors.ts), so only new ones are told. */
  errors: KnownErrors
  /** Files the agent edited since the last turn: their new problems were in the edit's own result. */
  agentEdited: Set<string>
}

export function newEnvironmentMemory(): EnvironmentMemory {
  return { open: "", active: "", errors: undefined, agentEdited: new Set() }
}

/**
 * The environment section for the next user turn, or undefined when nothing changed since `memory`.
 * First turn: a bounded listing of the workspace root (breadth-first, .gitignore honoured) and the open
 * buffers. Later turns: open buffers and the active file only when they changed, files the user edited, and
 * errors that appeared since the last turn (when a diagnostics source exists).
 */
export async function environmentDetails(
  port: EnvironmentPort | undefined,
  memory: EnvironmentMemory,
  options: {
    folder: string
    workspaceFolders: readonly string[]
    firstTurn: boolean
    /** Where "new errors" come from; none: not told. */
    diagnostics?: DiagnosticsPort | undefined
    signal?: AbortSignal
  },
): Promise<string | undefined> {
  const show = (path: string) => {
    const rel = relative(options.folder, path)
    return rel && !rel.startsWith("..") ? rel.split(sep).join("/") : path
  }
  const lines: string[] = []
  if (options.firstTurn && options.folder) {
    const listing = await workspaceOverview(options.folder, options.workspaceFolders, FIRST_TURN_ENTRIES)
    const names = listing.entries.map((e) => `${show(e.path)}${e.isDirectory ? "/" : ""}`)
    if (names.length)
      lines.push(
        `Workspace files${listing.truncated ? ` (first ${names.length}, breadth-first; list_files shows more)` : ""}: ${names.join(", ")}`,
      )
  }
  const openFiles = port?.openFiles() ?? []
  const edited = [...new Set(port?.takeUserEdits() ?? [])]
  if (port) {
    const open = openFiles.slice(0, MAX_OPEN).map(show).join(", ")
    if (open !== memory.open) {
      memory.open = open
      if (open || !options.firstTurn) lines.push(`Open in the editor: ${open || "(none)"}`)
    }
    const activeFile = port.activeFile()
    const active = activeFile
      ? `${show(activeFile.path)}${activeFile.selection ? ` (selected lines ${activeFile.selection.startLine}-${activeFile.selection.endLine})` : ""}`
      : ""
    if (active !== memory.active) {
      memory.active = active
      if (active) lines.push(`Active file: ${active}`)
    }
    if (edited.length)
      lines.push(
        `Changed by the user since your last turn: ${edited.slice(0, MAX_EDITED).map(show).join(", ")}${edited.length > MAX_EDITED ? ` and ${edited.length - MAX_EDITED} more` : ""}`,
      )
  }
  const agentEdited = [...memory.agentEdited]
  memory.agentEdited.clear()
  if (options.diagnostics) {
    const errors = await newErrors(
      options.diagnostics,
      memory.errors,
      { open: openFiles, edited, agentEdited },
      show,
      options.signal ?? new AbortController().signal,
    )
    memory.errors = errors.known
    if (errors.line) lines.push(errors.line)
  }
  return lines.length ? `${ENVIRONMENT_OPEN}\n${lines.join("\n")}\n</environment>` : undefined
}
