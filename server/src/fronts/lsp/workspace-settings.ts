import type { Connection } from "vscode-languageserver/node"
import type { SettingsManager } from "../../core/settings"

/**
 * The LSP side of the workspace settings source: `workspace/configuration` (section "agent"), and
 * `workspace/didChangeConfiguration` carrying the settings itself for clients without workspace/configuration.
 */
export class LspWorkspaceSettings {
  constructor(
    private readonly connection: Connection,
    private readonly settings: SettingsManager,
  ) {}

  /** Re-reads workspace/configuration (section "agent"); a failed request counts as no workspace settings. */
  async refresh(supported: boolean): Promise<void> {
    if (!supported) return
    let section: unknown
    try {
      ;[section] = await this.connection.workspace.getConfiguration([{ section: "agent" }])
    } catch {
      section = undefined
    }
    this.settings.setWorkspace(section)
  }

  /** didChangeConfiguration may carry the settings itself (clients without workspace/configuration). */
  fromNotification(settings: unknown): void {
    const section = settings && typeof settings === "object" ? (settings as { agent?: unknown }).agent : undefined
    if (section !== undefined) this.settings.setWorkspace(section)
  }
}
