import { readFile } from "node:fs/promises"
import { resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { renderManifest, renderSettingKeys, settingProperties } from "../../../clients/vscode/scripts/manifest"
import { defaultSettings } from "../../../server/src/config/schema"

const VSCODE = resolve(import.meta.dirname, "..", "..", "..", "clients", "vscode")

describe("VS Code extension manifest", () => {
  it("matches the settings generated from the server's schema (run clients/vscode/scripts/gen-manifest.ts after changing it)", async () => {
    const text = await readFile(resolve(VSCODE, "package.json"), "utf8")
    expect(text).toBe(renderManifest(JSON.parse(text)))
    expect(await readFile(resolve(VSCODE, "src", "setting-keys.ts"), "utf8")).toBe(renderSettingKeys())
  })

  it("contributes every leaf setting under agent.* with the server's default", () => {
    const props = settingProperties()
    const defaults = defaultSettings()
    expect(props["agent.autoApprove.read"]).toMatchObject({ type: "boolean", default: true })
    expect(props["agent.terminal.outputLines"]).toMatchObject({ type: "integer", default: defaults.terminal.outputLines })
    expect(props["agent.modes.default"]).toMatchObject({ default: "code" })
    expect(props["agent.mcpServers"]).toMatchObject({ type: "object" })
    for (const key of Object.keys(props)) expect(key).toMatch(/^agent\.[a-zA-Z.]+$/)
  })

  it("scopes keys the server only trusts from user settings as machine settings", () => {
    const props = settingProperties()
    for (const key of [
      "agent.baseUrl",
      "agent.terminal.allow",
      "agent.autoApprove.write",
      "agent.mcpServers",
      "agent.search.ripgrepPath",
      "agent.provider",
      "agent.model",
      "agent.profiles",
      "agent.modeProfiles",
    ])
      expect(props[key], key).toMatchObject({ scope: "machine" })
    expect(props["agent.maxTokens"].scope).toBeUndefined()
  })

  it("contributes exactly the agentLsp.* commands that the extension registers", async () => {
    const manifest = JSON.parse(await readFile(resolve(VSCODE, "package.json"), "utf8"))
    const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort()
    const source = await readFile(resolve(VSCODE, "src", "extension.ts"), "utf8")
    const registered = [...source.matchAll(/register\("(agentLsp\.[A-Za-z]+)"/g)].map((m) => m[1]).sort()
    expect(contributed).toEqual(registered)
    expect(contributed).toEqual(
      expect.arrayContaining(["agentLsp.newTask", "agentLsp.sendMessage", "agentLsp.cancelTask", "agentLsp.setMode", "agentLsp.showTasks"]),
    )
  })
})

describe("VS Code extension manifest: the Agent: Changes view", () => {
  const manifest = async () => JSON.parse(await readFile(resolve(VSCODE, "package.json"), "utf8"))

  it("puts the view in the Explorer with a welcome text for no task and for nothing left to review", async () => {
    const { contributes } = await manifest()
    expect(contributes.views.explorer).toEqual([expect.objectContaining({ id: "agentLsp.changes", name: "Agent: Changes" })])
    const welcome = contributes.viewsWelcome.filter((w: { view: string }) => w.view === "agentLsp.changes")
    expect(welcome.map((w: { when: string }) => w.when).sort()).toEqual(["!agentLsp.reviewHasTask", "agentLsp.reviewHasTask"])
    // The context keys the welcome texts and title actions read are the ones review-tree.ts sets.
    const tree = await readFile(resolve(VSCODE, "src", "review-tree.ts"), "utf8")
    for (const key of ["agentLsp.reviewHasTask", "agentLsp.reviewHasChanges"]) expect(tree).toContain(`"${key}"`)
  })

  it("names only contributed commands in its menus, each with an icon, and hides the item commands from the palette", async () => {
    const { contributes } = await manifest()
    const commands = new Map(contributes.commands.map((c: { command: string }) => [c.command, c]))
    const inView = [...contributes.menus["view/title"], ...contributes.menus["view/item/context"]]
    expect(inView.map((m: { command: string }) => m.command)).toEqual(
      expect.arrayContaining([
        "agentLsp.reviewKeepAll",
        "agentLsp.reviewRejectAll",
        "agentLsp.reviewUndoReject",
        "agentLsp.reviewRejectFile",
      ]),
    )
    for (const entry of inView) {
      expect(commands.get(entry.command), entry.command).toHaveProperty("icon")
      expect(entry.when).toContain("view == agentLsp.changes")
    }
    // A file's or a hunk's command needs its item: from the palette it would have none.
    const hidden = contributes.menus.commandPalette
      .filter((m: { when: string }) => m.when === "false")
      .map((m: { command: string }) => m.command)
    const itemOnly = contributes.menus["view/item/context"].map((m: { command: string }) => m.command)
    for (const command of itemOnly) expect(hidden).toContain(command)
    expect(hidden).toContain("agentLsp.reviewRevealHunk")
  })
})
