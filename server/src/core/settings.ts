import { readGlobalSettings } from "../config/global-file"
import { describeSource, resolveSettings, type SourcedSettings } from "../config/load"
import { defaultSettings, type Settings } from "../config/schema"

/**
 * The settings in force, from the sources of DESIGN "Configuration" (later wins): defaults, the global
 * file, the front's own trusted options (LSP initializationOptions.agent, CLI flags), and the workspace's
 * values (LSP workspace/configuration; untrusted keys dropped). Fronts feed the sources; problems are
 * reported once each through `notify`, naming the key and the source.
 */
export class SettingsManager {
  private current: Settings = defaultSettings()
  private globalValue: unknown
  private initValue: unknown
  private workspaceValue: unknown
  private readonly reported = new Set<string>()
  private readonly listeners: ((settings: Settings) => void)[] = []

  constructor(private readonly notify: (message: string) => void) {}

  get value(): Settings {
    return this.current
  }

  onChange(listener: (settings: Settings) => void): void {
    this.listeners.push(listener)
  }

  /** Reads the global file and takes the front's trusted options (the `agent` section). */
  async loadInitial(trustedOptions: unknown, globalFile?: string): Promise<void> {
    const global = await readGlobalSettings(globalFile)
    if (global.problem) this.report(`agent-lsp: ${global.problem}; using the other settings sources.`)
    this.globalValue = global.value
    this.initValue = trustedOptions
    this.recompute()
  }

  /** The workspace's `agent` section (undefined when it has none); untrusted keys are dropped with a warning. */
  setWorkspace(section: unknown): void {
    this.workspaceValue = section ?? undefined
    this.recompute()
  }

  private recompute(): void {
    const sources: SourcedSettings[] = [
      { source: "globalFile", value: this.globalValue },
      { source: "initializationOptions", value: this.initValue },
      { source: "workspaceConfiguration", value: this.workspaceValue },
    ]
    const { settings, problems } = resolveSettings(sources)
    this.current = settings
    for (const problem of problems) {
      this.report(`agent-lsp: setting ${problem.key} from ${describeSource(problem.source)}: ${problem.message}. Using the default or an earlier source instead.`)
    }
    for (const listener of this.listeners) listener(settings)
  }

  private report(message: string): void {
    if (this.reported.has(message)) return
    this.reported.add(message)
    this.notify(message)
  }
}
