import { existsSync, watch, type FSWatcher } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import type { ModeSummary } from "@agent-lsp/protocol"
import { readRegularFileSync } from "../config/regular-file"
import { BUILTIN_MODES } from "./builtin"
import { parseCustomModes } from "./custom-modes"
import { wideningKey } from "./override"
import { groupName, type Mode, type ModeConfig, type ModeFileError, type ModeSource } from "./types"

/** The file name of workspace custom modes (Roo-Code's). */
export const WORKSPACE_MODES_FILE = ".roomodes"
/** Global custom modes files, in $XDG_CONFIG_HOME/agent-lsp; the first that exists is read. */
export const GLOBAL_MODES_FILES = ["custom_modes.yaml", "custom_modes.yml", "custom_modes.json"] as const

/** What the pipeline and the prompt need from the registry (tests may hand in anything shaped so). */
export interface ModeLookup {
  get(slug: string): Mode | undefined
  list(): readonly Mode[]
}

export interface ModeRegistryOptions {
  /** Workspace folders; each one's `.roomodes` is read (the first folder wins on a shared slug). */
  workspaceFolders?: () => readonly string[]
  /** Where the global custom modes file lives; default $XDG_CONFIG_HOME/agent-lsp. Null = no global file. */
  globalConfigDir?: string | null
  /** A problem with a modes file, for the user (the front shows it, e.g. with window/showMessage). */
  onError?: (error: ModeFileError) => void
  /** Called after a reload that changed the modes (not for the first load, in the constructor). */
  onChange?: (modes: readonly Mode[]) => void
  /** Watch the files and reload when they change (default false; the server turns it on). */
  watch?: boolean
  /** Debounce for file-watch reloads. */
  debounceMs?: number
}

/**
 * Built-in modes plus custom modes from the global file and each workspace's `.roomodes`. Workspace
 * overrides global overrides built-in, by slug. Loading is synchronous (two small files) so a registry
 * is usable as soon as it is constructed; reload() re-reads them.
 */
export class ModeRegistry implements ModeLookup {
  private modes: Mode[] = BUILTIN_MODES.map((mode) => ({ ...mode, source: "builtin" as const }))
  private bySlug = new Map<string, Mode>()
  private lastErrors: ModeFileError[] = []
  private reportedErrors = new Set<string>()
  private watchers = new Map<string, FSWatcher>()
  private timer: NodeJS.Timeout | undefined
  private disposed = false

  constructor(private readonly options: ModeRegistryOptions = {}) {
    this.load(false)
  }

  /** Only the built-in modes (tests, headless use). */
  static builtinOnly(): ModeRegistry {
    return new ModeRegistry({ globalConfigDir: null })
  }

  get(slug: string): Mode | undefined {
    return this.bySlug.get(slug)
  }

  list(): readonly Mode[] {
    return this.modes
  }

  /** The modes as `agent/listModes` reports them. */
  summaries(): ModeSummary[] {
    return this.modes.map(modeSummary)
  }

  /** Problems found by the last load. */
  errors(): readonly ModeFileError[] {
    return this.lastErrors
  }

  /** Re-reads the custom modes files. Each new problem is reported once through onError; returns all. */
  reload(): readonly ModeFileError[] {
    return this.load(true)
  }

  /** `notifyChange` is false for the first load: the owner has no reference to the registry yet. */
  private load(notifyChange: boolean): readonly ModeFileError[] {
    const errors: ModeFileError[] = []
    const merged = new Map<string, Mode>(BUILTIN_MODES.map((mode) => [mode.slug, { ...mode, source: "builtin" as const }]))
    const globalFile = this.globalFile()
    if (globalFile) this.mergeFile(merged, globalFile, "global", errors)
    // Later folders first, so the first folder's mode is the one that stays.
    for (const folder of [...this.folders()].reverse()) this.mergeFile(merged, join(folder, WORKSPACE_MODES_FILE), "workspace", errors)

    const before = JSON.stringify(this.modes)
    this.modes = [...merged.values()]
    this.bySlug = merged
    this.lastErrors = errors
    const keys = new Set(errors.map((e) => `${e.file}\n${e.reason}`))
    for (const error of errors) if (!this.reportedErrors.has(`${error.file}\n${error.reason}`)) this.options.onError?.(error)
    this.reportedErrors = keys
    if (this.options.watch) this.syncWatchers()
    if (notifyChange && before !== JSON.stringify(this.modes)) this.options.onChange?.(this.modes)
    return errors
  }

  /** Stops watching files. */
  dispose(): void {
    this.disposed = true
    clearTimeout(this.timer)
    for (const watcher of this.watchers.values()) watcher.close()
    this.watchers.clear()
  }

  private folders(): readonly string[] {
    return this.options.workspaceFolders?.() ?? []
  }

  private globalDir(): string | null {
    if (this.options.globalConfigDir !== undefined) return this.options.globalConfigDir
    return join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "agent-lsp")
  }

  private globalFile(): string | undefined {
    const dir = this.globalDir()
    if (!dir) return undefined
    return GLOBAL_MODES_FILES.map((name) => join(dir, name)).find((file) => existsSync(file))
  }

  private mergeFile(into: Map<string, Mode>, file: string, source: ModeSource, errors: ModeFileError[]): void {
    let text: string
    try {
      // A FIFO named .roomodes would block a synchronous read, and so the whole server, forever: never read one.
      text = readRegularFileSync(file).toString("utf8")
    } catch (error) {
      // A folder named .roomodes is no modes file: the OS sandbox holds a missing one by an empty folder while a command runs.
      const code = (error as NodeJS.ErrnoException).code
      if (code !== "ENOENT" && code !== "EISDIR") errors.push({ file, reason: `could not be read: ${(error as Error).message}` })
      return
    }
    const parsed = parseCustomModes(text, file)
    errors.push(...parsed.errors)
    for (const mode of parsed.modes) {
      // Delete first so an overriding mode keeps the built-in's position only when it is built-in.
      const existing = into.get(mode.slug)
      const widened = source === "workspace" && existing ? wideningKey(existing, mode) : undefined
      if (existing && widened) {
        errors.push({
          file,
          reason:
            `mode "${mode.slug}" was not changed: a workspace may only tighten the ${existing.source} mode "${mode.slug}", and its ` +
            `${widened} would widen it. Give the mode a new slug, or define the override in your global custom modes file.`,
        })
        continue
      }
      if (existing && existing.source !== "builtin") into.delete(mode.slug)
      into.set(mode.slug, { ...mode, source, file })
    }
  }

  /** Watches the folders holding the files (a file that does not exist yet cannot be watched itself). */
  private syncWatchers(): void {
    if (this.disposed) return
    const dirs = new Map<string, readonly string[]>()
    for (const folder of this.folders()) dirs.set(folder, [WORKSPACE_MODES_FILE])
    const globalDir = this.globalDir()
    if (globalDir) dirs.set(globalDir, GLOBAL_MODES_FILES)
    for (const [dir, watcher] of this.watchers) {
      if (!dirs.has(dir)) {
        watcher.close()
        this.watchers.delete(dir)
      }
    }
    for (const [dir, names] of dirs) {
      if (this.watchers.has(dir)) continue
      try {
        const watcher = watch(dir, { persistent: false }, (_event, filename) => {
          if (!filename || names.includes(filename.toString())) this.scheduleReload()
        })
        watcher.on("error", () => {
          watcher.close()
          this.watchers.delete(dir)
        })
        this.watchers.set(dir, watcher)
      } catch {
        // The folder does not exist (e.g. no global config dir yet): nothing to watch.
      }
    }
  }

  private scheduleReload(): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      if (!this.disposed) this.reload()
    }, this.options.debounceMs ?? 100)
    this.timer.unref?.()
  }
}

/** One line describing a mode for pickers: its description, else the first sentence of whenToUse or the role. */
export function modeSummary(mode: Mode): ModeSummary {
  return {
    slug: mode.slug,
    name: mode.name,
    description: mode.description ?? firstSentence(mode.whenToUse ?? mode.roleDefinition),
    groups: mode.groups.map(groupName),
    source: mode.source,
  }
}

/** Built-in modes as ModeConfig values, for callers that only need the data. */
export function builtinModes(): readonly ModeConfig[] {
  return BUILTIN_MODES
}

function firstSentence(text: string): string {
  const match = /^.*?[.!?](\s|$)/s.exec(text)
  return (match ? match[0] : text).trim()
}
