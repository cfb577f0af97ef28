import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { startAcpClient } from "../support/acp-client"
import { runCliToEnd } from "../support/cli-process"
import type { FakeReply } from "../support/fake-anthropic"
import { hookGroup, hookHome } from "../support/hook-scripts"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { startSession } from "../support/session"

/**
 * A UserPromptSubmit hook that blocks (exit 2): the prompt is not sent and the user sees why, in every front.
 * The same hook lets a prompt without the word through (the control: the boundary is the hook, not the setup).
 */

const REASON = "Prompts that mention secrets are not sent: remove the word and try again."
const GUARD = `#!/bin/sh\nif grep -q secret; then echo "${REASON}" >&2; exit 2; fi\n`
const done = (result: string): FakeReply => ({ toolCalls: [{ name: "attempt_completion", input: { result } }] })
const guardedSettings = (home: string) => ({ hooks: { UserPromptSubmit: [hookGroup(join(home, "guard.sh"))] } })
const sentText = (api: { requests: { body: any }[] }) => JSON.stringify(api.requests.map((r) => r.body.messages))

describe("a UserPromptSubmit hook that blocks", () => {
  it("LSP: cancels the new task with blockedByHook and the reason (taskUpdate, showMessage), sends nothing, and lets other prompts through", async () => {
    const ws = await scopedWorkspace()
    const home = hookHome({}, { "guard.sh": GUARD })
    const { server, api } = await startSession([done("hello back")], {
      workspace: ws.root,
      initializationOptions: { agent: guardedSettings(home) },
    })
    const { taskId } = await server.request("agent/newTask", { text: "tell me the secret" })
    const status = await server.waitForStatus(taskId, "cancelled")
    expect(status.update).toEqual({
      kind: "status",
      status: "cancelled",
      blockedByHook: "UserPromptSubmit",
      message: expect.stringContaining(REASON),
    })
    expect(server.notifications).toContainEqual({
      method: "window/showMessage",
      params: { type: 2, message: expect.stringContaining(REASON) },
    })
    expect(server.updatesOf(taskId).some((u) => u.kind === "status" && u.status === "failed")).toBe(false)
    const task = await server.request("agent/getTask", { taskId })
    expect(task).toMatchObject({ status: "cancelled", messages: [] })
    await expect(server.request("agent/resumeTask", { taskId })).rejects.toThrow(/never started/)

    // Control: the same hook, a prompt without the word: it reaches the model.
    const other = (await server.request("agent/newTask", { text: "say hello" })).taskId
    await server.waitForStatus(other, "completed")
    expect(api.requests).toHaveLength(1)
    expect(sentText(api)).toContain("say hello")
    expect(sentText(api)).not.toContain("secret")

    // Continuing a task: the message is not sent; the task keeps its status, with the reason.
    await server.request("agent/sendMessage", { taskId: other, text: "now the secret" })
    await server.waitFor(
      () => server.updatesOf(other).find((u) => u.kind === "status" && u.blockedByHook === "UserPromptSubmit"),
      10_000,
      "the blocked message's status",
    )
    expect(server.updatesOf(other).at(-1)).toEqual({
      kind: "status",
      status: "completed",
      blockedByHook: "UserPromptSubmit",
      message: expect.stringContaining(REASON),
    })
    expect(api.requests).toHaveLength(1)
    expect((await server.request("agent/getTask", { taskId: other })).status).toBe("completed")
  })

  it("ACP: ends the prompt turn with stopReason refusal and says why, sends nothing, and the next prompt goes through", async () => {
    const ws = await scopedWorkspace()
    // The hooks come from the global settings file (trusted), the script beside it.
    const configHome = hookHome(guardedSettings, { "guard.sh": GUARD })
    const api = await scopedFake([done("hello back")])
    const { client } = await startAcpClient({ apiUrl: api.url, env: { XDG_CONFIG_HOME: configHome } })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const prompt = (text: string) => client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] })
    const said = (text: string) =>
      client.waitForUpdate(sessionId, (u) => u.sessionUpdate === "agent_message_chunk" && u.content.text.includes(text))

    expect((await prompt("tell me the secret")).stopReason).toBe("refusal")
    await said(REASON)
    expect(api.requests).toHaveLength(0)

    expect((await prompt("say hello")).stopReason).toBe("end_turn")
    // The client may see the response before its last update: the SDK hands notifications to the handler
    // after validating them asynchronously. Counted only once the turn's answer is in.
    await said("hello back")
    expect(api.requests).toHaveLength(1)
    expect(sentText(api)).not.toContain("secret")

    const before = client.updatesOf(sessionId, "agent_message_chunk").length
    expect((await prompt("and the secret?")).stopReason).toBe("refusal")
    await client.waitForUpdate(sessionId, () => client.updatesOf(sessionId, "agent_message_chunk").length > before)
    expect(client.updatesOf(sessionId, "agent_message_chunk").at(-1).content.text).toContain(REASON)
    expect(api.requests).toHaveLength(1)
  })

  it("agent-lsp run: exits 3 with the hook's reason on stderr and sends nothing; without the word it runs (exit 0)", async () => {
    const ws = await scopedWorkspace()
    const env = { XDG_CONFIG_HOME: hookHome(guardedSettings, { "guard.sh": GUARD }) }
    const api = await scopedFake([done("hello back")])
    const blocked = await runCliToEnd(["run", "tell me the secret"], { cwd: ws.root, apiUrl: api.url, env })
    expect(blocked.code).toBe(3)
    expect(blocked.stderr).toContain(REASON)
    expect(blocked.stderr).toMatch(/UserPromptSubmit hook blocked this prompt/)
    expect(blocked.stdout).toBe("")
    expect(api.requests).toHaveLength(0)

    const control = await runCliToEnd(["run", "say hello"], { cwd: ws.root, apiUrl: api.url, env })
    expect(control.code, control.stderr).toBe(0)
    expect(control.stdout).toBe("hello back\n")
    expect(api.requests).toHaveLength(1)
  })
})
