import { describe, expect, it, onTestFinished } from "vitest"
import { startFakeOpenAi } from "../support/fake-openai"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

describe("models per mode and prompt caching through the built server", () => {
  it("runs a subtask on its own mode's profile, on another provider, and the parent on its own", async () => {
    const ws = await tempWorkspace({})
    const local = await startFakeOpenAi([
      {
        toolCalls: [{ id: "call_child", name: "attempt_completion", input: { result: "Answered locally." } }],
        wholeArguments: true,
        noUsage: true,
      },
    ])
    onTestFinished(() => local.close())
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_sub", name: "new_task", input: { mode: "ask", message: "What is 2+2?" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "Delegated." } }] },
      ],
      {
        workspace: ws.root,
        initializationOptions: {
          agent: {
            autoApprove: { subtasks: true },
            profiles: { local: { provider: "openai", model: "qwen2.5-coder:7b", baseUrl: `${local.url}/v1`, contextWindow: 32_768 } },
            modeProfiles: { ask: "local" },
          },
        },
      },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Delegate a sum", mode: "orchestrator" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(api.requests.map((r) => r.body.model)).toEqual(["claude-sonnet-5-5", "claude-sonnet-5-5"])
    expect(local.requests).toHaveLength(1)
    expect(local.requests[0]!.body.model).toBe("qwen2.5-coder:7b")
    expect(JSON.stringify(local.requests[0]!.body.messages)).toContain("What is 2+2?")
    // The Anthropic key never goes to the other provider's server.
    expect(JSON.stringify(local.requests[0]!.headers)).not.toContain("sk-ant-test-harness-key")
    const parentResult = api.requests[1]!.body.messages.at(-1).content.find((b: any) => b.type === "tool_result")
    expect(JSON.stringify(parentResult.content)).toContain("Answered locally.")
  })

  it("keeps cache breakpoints on Anthropic requests and counts cache reads and writes in usage and cost", async () => {
    const ws = await tempWorkspace({ "a.txt": "alpha\n" })
    const { server, api } = await startSession(
      [
        {
          toolCalls: [{ id: "toolu_r", name: "read_file", input: { path: "a.txt" } }],
          usage: { inputTokens: 100, outputTokens: 10, cacheWriteTokens: 4000 },
        },
        {
          toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "ok" } }],
          usage: { inputTokens: 50, outputTokens: 10, cacheReadTokens: 4000, cacheWriteTokens: 200 },
        },
      ],
      { workspace: ws.root, initializationOptions: { agent: { model: "claude-sonnet-5-5" } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "read a.txt" })
    await server.waitForStatus(taskId, "completed", 20_000)

    for (const request of api.requests) {
      expect(request.body.system.at(-1).cache_control).toEqual({ type: "ephemeral" })
      expect(request.body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: "ephemeral" })
    }
    const usage = server.updatesOf(taskId).filter((u) => u.kind === "usage")
    // Sonnet: input $3, output $15, cache write $3.75, cache read $0.30 per million tokens.
    expect(usage[0]).toEqual({
      kind: "usage",
      inputTokens: 100,
      outputTokens: 10,
      cacheReadTokens: 0,
      cacheWriteTokens: 4000,
      costUsd: 0.01545,
    })
    expect(usage[1]).toEqual({
      kind: "usage",
      inputTokens: 150,
      outputTokens: 20,
      cacheReadTokens: 4000,
      cacheWriteTokens: 4200,
      costUsd: 0.0177,
    })
  })
})
