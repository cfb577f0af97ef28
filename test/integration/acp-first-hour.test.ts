import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { startAcpClient } from "../support/acp-client"
import { scopedFake, scopedWorkspace } from "../support/scoped"

describe("the ACP front, as a newcomer meets it", () => {
  it("reports an unknown settings key on stderr with the file and the nearest known key", async () => {
    const stateHome = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-acp-home-")))
    const file = join(stateHome, "config", "agent-lsp", "settings.json")
    mkdirSync(join(stateHome, "config", "agent-lsp"), { recursive: true })
    writeFileSync(file, JSON.stringify({ agent: { autoAprove: { write: true } } }))
    const api = await scopedFake([])
    const { client } = await startAcpClient({ apiUrl: api.url, stateHome })
    const deadline = Date.now() + 5000
    while (!client.stderr.includes("autoAprove") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(client.stderr).toContain(
      `setting agent.autoAprove from the global settings file ${file}: unknown key, not used; did you mean agent.autoApprove?`,
    )
  })

  it("answers a prompt in a folder that does not exist with an error naming it, before any model request", async () => {
    const ws = await scopedWorkspace()
    const missing = join(ws.root, "deleted-project")
    const api = await scopedFake([{ text: "never asked" }])
    const { client } = await startAcpClient({ apiUrl: api.url })
    const session = await client.agent.request("session/new", { cwd: missing, mcpServers: [] })
    const prompt = client.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "hi" }] })
    await expect(prompt).rejects.toThrow(`The workspace folder ${missing} does not exist`)
    expect(api.requests).toHaveLength(0)
  })
})
