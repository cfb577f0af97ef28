import { MessageType, type Connection } from "vscode-languageserver/node"
import { readGlobalSettings } from "../config/global-file"
import { describeSource, resolveSettings, type SourcedSettings } from "../config/load"
import { defaultSettings, type Settings } from "../config/schema"

/**
 * The settings in force, from the sources of DESIGN "Configuration" (later wins): defaults, the global
 * file, initializationOptions.agent, workspace/configuration (untrusted keys dropped). Problems are shown
 * once each with window/showMessage, naming the key and the source.
 */
export class SettingsManager {
  private current: Settings = defaultSettings()
  private globalValue: unknown
  private initValue: unknown
  private workspaceValue: unknown
  private readonly reported = new Set<string>()
  private readonly listeners: ((settings: Settings) => void)[] = []

  constructor(private readonly connection: Connection) {}

  get value(): Settings {
    return this.current
  }

  onChange(listener: (settings: Settings) => void): void {
    this.listeners.push(listener)
  }

  async loadInitial(initializationOptions: unknown, globalFile?: string): Promise<void> {
    const global = await readGlobalSettings(globalFile)
    if (global.problem) this.report(`agent-lsp: ${global.problem}; using the other settings sources.`)
    this.globalValue = global.value
    const init = initializationOptions as { agent?: unknown } | undefined
    this.initValue = init && typeof init === "object" ? init.agent : undefined
    this.recompute()
  }

  /** Re-reads workspace/configuration (section "agent"). */
  async refreshWorkspace(supported: boolean): Promise<void> {
    if (!supported) return
    try {
      const [section] = await this.connection.workspace.getConfiguration([{ section: "agent" }])
      this.workspaceValue = section ?? undefined
    } catch {
      this.workspaceValue = undefined
    }
    this.recompute()
  }

  /** didChangeConfiguration may carry the settings itself (clients without workspace/configuration). */
  setWorkspaceFromNotification(settings: unknown): void {
    const section = (settings as { agent?: unknown } | undefined)?.agent
    if (section !== undefined) {
      this.workspaceValue = section
      this.recompute()
    }
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
    void this.connection.sendNotification("window/showMessage", { type: MessageType.Warning, message })
  }
}
