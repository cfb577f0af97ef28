import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * The workspace's instruction files go into every request's system prompt without a tool call, so a cloned
 * repository must not be able to make them links to files outside the workspace or to `.rooignore`d ones
 * (git checks out symbolic links as they were committed, absolute or `../..`).
 */

const done = { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }

describe("instruction files that are symbolic links", () => {
  it("leaves AGENTS.md and .roo rules out of the prompt when they lead outside the workspace or to ignored files", async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-outside-")))
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
    writeFileSync(join(outside, "credentials"), "OUTSIDE-AGENTS-SECRET\n")
    mkdirSync(join(outside, "notes"))
    writeFileSync(join(outside, "notes", "private.md"), "OUTSIDE-RULES-SECRET\n")
    const ws = await tempWorkspace({
      ".rooignore": "secrets/\n",
      "secrets/rules.md": "IGNORED-RULE-SECRET\n",
      ".roo/rules-code/style.md": "Use tabs (inside rule).\n",
    })
    onTestFinished(() => ws.cleanup())
    symlinkSync(join(outside, "credentials"), ws.path("AGENTS.md"))
    symlinkSync(join(outside, "notes"), ws.path(".roo/rules"))
    symlinkSync("../../secrets/rules.md", ws.path(".roo/rules-code/ignored.md"))
    const { server, api } = await startSession([done], { workspace: ws.root })
    const { taskId } = await server.request("agent/newTask", { text: "hello" })
    await server.waitForStatus(taskId, "completed", 30_000)
    const system = JSON.stringify(api.requests[0]!.body.system)
    expect(system).toContain("Use tabs (inside rule).")
    expect(system).not.toContain("OUTSIDE-AGENTS-SECRET")
    expect(system).not.toContain("OUTSIDE-RULES-SECRET")
    expect(system).not.toContain("IGNORED-RULE-SECRET")
  })

  it("keeps AGENTS.md that links to a file inside the workspace (AGENTS.md -> CLAUDE.md)", async () => {
    const ws = await tempWorkspace({ "CLAUDE.md": "Inside instructions.\n" })
    onTestFinished(() => ws.cleanup())
    symlinkSync("CLAUDE.md", ws.path("AGENTS.md"))
    const { server, api } = await startSession([done], { workspace: ws.root })
    const { taskId } = await server.request("agent/newTask", { text: "hello" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(JSON.stringify(api.requests[0]!.body.system)).toContain("Inside instructions.")
  })
})
