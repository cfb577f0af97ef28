import { ConfigurationRequest, type Connection } from "vscode-languageserver/node"
import type { SettingsManager } from "../../core/settings"
import { boundedRequest } from "./bounded-request"

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
      const timeoutMs = this.settings.value.timeouts.editorSeconds * 1000
      const sent = await boundedRequest(
        (token) => this.connection.sendRequest(ConfigurationRequest.type, { items: [{ section: "agent" }] }, token),
        timeoutMs,
      )
      // An editor that does not answer in time keeps what it said before.
      if (sent.outcome !== "answered") return
      section = Array.isArray(sent.value) ? sent.value[0] : undefined
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
