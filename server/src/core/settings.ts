import { unwatchFile, watchFile, type Stats } from "node:fs"
import { join } from "node:path"
import { readGlobalSettings } from "../config/global-file"
import { globalSettingsFile } from "../config/paths"
import { describeSource, resolveSettings, type SourcedSettings } from "../config/load"
import { defaultSettings, type Settings } from "../config/schema"
import { declaredKeyNames, registerSecretNames } from "../config/secrets"
import { readWorkspaceSettings, WORKSPACE_SETTINGS_FILE } from "../config/workspace-file"

/**
 * The settings in force, from the sources of DESIGN "Configuration": defaults, the global file, the
 * front's own trusted options (LSP initializationOptions.agent, CLI flags), the workspace's values (LSP
 * workspace/configuration) and each workspace folder's `.agent-lsp/settings.json`. The last two are
 * untrusted: they can only tighten (config/trust.ts). Fronts feed the sources; problems are reported once
 * each through `notify`, naming the key and the source (the file, for the files), without a program-name
 * prefix: each front adds its own.
 */
export class SettingsManager {
  private current: Settings = defaultSettings()
  private globalValue: unknown
  private initValue: unknown
  private workspaceValue: unknown
  private workspaceFileValues: unknown[] = []
  private globalPath: string | undefined
  private watchedFiles: string[] = []
  private folders: readonly string[] = []
  private readonly reported = new Set<string>()
  private readonly listeners: ((settings: Settings) => void)[] = []

  constructor(private readonly notify: (message: string) => void) {}

  get value(): Settings {
    return this.current
  }

  onChange(listener: (settings: Settings) => void): void {
    this.listeners.push(listener)
  }

  /**
   * Reads the global file and takes the front's trusted options (the `agent` section); with `folders`,
   * also reads their workspace settings files and watches them for changes.
   */
  async loadInitial(trustedOptions: unknown, globalFile?: string, folders?: readonly string[]): Promise<void> {
    const global = await readGlobalSettings(globalFile ?? globalSettingsFile(), { required: globalFile !== undefined })
    this.globalPath = globalFile ?? globalSettingsFile()
    if (global.problem) this.report(`${global.problem}; using the other settings sources.`)
    this.globalValue = global.value
    this.initValue = trustedOptions
    if (folders) {
      this.watchWorkspaceFiles(folders)
      await this.refreshWorkspaceFiles()
    } else this.recompute()
  }

  /** The workspace's `agent` section (undefined when it has none); untrusted keys are dropped with a warning. */
  setWorkspace(section: unknown): void {
    this.workspaceValue = section ?? undefined
    this.recompute()
  }

  /** Re-reads every folder's `.agent-lsp/settings.json` (at each task start, and when one changes on disk). */
  async refreshWorkspaceFiles(folders: readonly string[] = this.folders): Promise<void> {
    const reads = await Promise.all(folders.map((folder) => readWorkspaceSettings(folder)))
    for (const read of reads) if (read.problem) this.report(`${read.problem}; its settings are not used.`)
    this.workspaceFileValues = reads.map((read) => read.value)
    this.recompute()
  }

  /** Watches the workspace settings files of these folders (stat polling sees a file appear, too). */
  watchWorkspaceFiles(folders: readonly string[]): void {
    this.folders = [...folders]
    for (const file of this.watchedFiles) unwatchFile(file, this.onFileChange)
    this.watchedFiles = folders.map((folder) => join(folder, WORKSPACE_SETTINGS_FILE))
    for (const file of this.watchedFiles) watchFile(file, { interval: 2000, persistent: false }, this.onFileChange)
  }

  dispose(): void {
    for (const file of this.watchedFiles) unwatchFile(file, this.onFileChange)
    this.watchedFiles = []
  }

  private readonly onFileChange = (current: Stats, previous: Stats): void => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return
    void this.refreshWorkspaceFiles()
  }

  private recompute(): void {
    const sources: SourcedSettings[] = [
      { source: "globalFile", value: this.globalValue, ...(this.globalPath ? { file: this.globalPath } : {}) },
      { source: "initializationOptions", value: this.initValue },
      { source: "workspaceConfiguration", value: this.workspaceValue },
      ...this.workspaceFileValues.map(
        (value, i): SourcedSettings => ({ source: "workspaceFile", value, file: join(this.folders[i] ?? "", WORKSPACE_SETTINGS_FILE) }),
      ),
    ]
    const { settings, problems } = resolveSettings(sources)
    this.current = settings
    // Variables the user names as API keys (embedder, profiles) are secrets: kept from every process the agent starts.
    registerSecretNames(declaredKeyNames(settings))
    for (const problem of problems) {
      this.report(
        `setting ${problem.key} from ${describeSource(problem.source, problem.file)}: ${problem.message}.${problem.unknown ? "" : " Using the default or an earlier source instead."}`,
      )
    }
    for (const listener of this.listeners) listener(settings)
  }

  private report(message: string): void {
    if (this.reported.has(message)) return
    this.reported.add(message)
    this.notify(message)
  }
}
