import { readFile } from "node:fs/promises"
import { describe, expect, it } from "vitest"
import type { RecordedRequest } from "../support/loopback-api"
import { startOpenAiSession } from "../support/session"
import { tempWorkspace, textsUnder } from "../support/temp-workspace"

const KEY = "sk-proj-integration-key-5b9f1c2d7e"

/** The `role: "tool"` message answering `callId` in a Chat Completions request the fake received. */
const toolMessage = (request: RecordedRequest | undefined, callId: string) =>
  request?.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === callId)

/** read_file, an edit the user approves, a command, attempt_completion: one of each kind of tool. */
const fullTask = [
  { text: "Reading first.", toolCalls: [{ id: "call_read", name: "read_file", input: { path: "src/app.ts" } }] },
  {
    toolCalls: [
      {
        id: "call_edit",
        name: "apply_diff",
        input: {
          path: "src/app.ts",
          diff: "<<<<<<< SEARCH\n:start_line:1\n-------\nexport const port = 80\n=======\nexport const port = 8080\n>>>>>>> REPLACE",
        },
      },
    ],
    // Arguments in 3-character pieces across many chunks, like OpenAI streams them.
    argumentChunkChars: 3,
  },
  { toolCalls: [{ id: "call_cmd", name: "execute_command", input: { command: 'echo "key:${OPENAI_API_KEY:-unset}"' } }] },
  { toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "Port changed." } }] },
]

describe("the openai provider through the built server", () => {
  it("runs a full task (read, approved edit, command, completion) with OPENAI_API_KEY set, never leaking the key", async () => {
    const ws = await tempWorkspace({ "src/app.ts": "export const port = 80\n" })
    const { server, api } = await startOpenAiSession(fullTask, { workspace: ws.root, apiKey: KEY })
    const { taskId } = await server.request("agent/newTask", { text: "Change the port to 8080" })
    await server.waitForStatus(taskId, "completed", 30_000)

    expect(api.requests).toHaveLength(4)
    expect(api.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true)
    expect(api.requests[0]!.body.model).toBe("gpt-4o-mini")
    expect(api.requests[0]!.body.tools.map((t: any) => t.function.name)).toEqual(
      expect.arrayContaining(["read_file", "apply_diff", "execute_command", "attempt_completion"]),
    )
    expect(toolMessage(api.requests[1], "call_read").content).toContain("export const port = 80")
    // The edit asked the user, was applied, and its result went back as a tool message.
    expect(server.serverRequests.find((r) => r.method === "agent/requestApproval")?.params).toMatchObject({ tool: "apply_diff" })
    expect(await readFile(ws.path("src/app.ts"), "utf8")).toBe("export const port = 8080\n")
    expect(toolMessage(api.requests[2], "call_edit").content).not.toMatch(/^Error/)
    // The command ran without the key in its environment.
    expect(toolMessage(api.requests[3], "call_cmd").content).toContain("key:unset")
    expect(server.updatesOf(taskId)).toContainEqual({ kind: "completed", result: "Port changed." })
    const stored = [...textsUnder(server.stateHome).values()]
    expect(stored.length).toBeGreaterThan(0)
    expect(stored.join("\n")).not.toContain(KEY)
    expect(server.stderr).not.toContain(KEY)
  })

  it("runs the same task against a local server with no key at all, sending no Authorization header", async () => {
    const ws = await tempWorkspace({ "src/app.ts": "export const port = 80\n" })
    const local = fullTask.map((turn) => ({ ...turn, noUsage: true, finishReason: "stop" as const }))
    const { server, api } = await startOpenAiSession(local, {
      workspace: ws.root,
      apiKey: undefined,
      agent: { model: "qwen2.5-coder:7b", contextWindow: 32_768 },
    })
    const { taskId } = await server.request("agent/newTask", { text: "Change the port to 8080" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(api.requests).toHaveLength(4)
    expect(api.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined, undefined, undefined])
    expect(api.requests[0]!.body).toMatchObject({ model: "qwen2.5-coder:7b", max_tokens: 8192 })
    expect(await readFile(ws.path("src/app.ts"), "utf8")).toBe("export const port = 8080\n")
    // No usage chunk: tokens are estimated, and an unknown model has no price.
    const usage = server
      .updatesOf(taskId)
      .filter((u) => u.kind === "usage")
      .at(-1) as any
    expect(usage.inputTokens).toBeGreaterThan(0)
    expect(usage.costUsd).toBeUndefined()
  })

  it("fails the task before any request, naming agent.contextWindow, for a local model it does not know", async () => {
    const ws = await tempWorkspace({})
    const { server, api } = await startOpenAiSession([], { workspace: ws.root, apiKey: undefined, agent: { model: "llama3.1:8b" } })
    const { taskId } = await server.request("agent/newTask", { text: "hello" })
    const failed = await server.waitForStatus(taskId, "failed", 20_000)
    expect((failed.update as { message: string }).message).toMatch(/"llama3\.1:8b".*agent\.contextWindow/)
    expect(api.requests).toHaveLength(0)
  })

  it("switches the model with the mode: switch_mode and agent/setMode pick the mode's profile", async () => {
    const ws = await tempWorkspace({})
    const { server, api } = await startOpenAiSession(
      [
        { toolCalls: [{ id: "call_sw", name: "switch_mode", input: { mode_slug: "architect", reason: "plan first" } }] },
        { toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "planned" } }] },
        { toolCalls: [{ id: "call_done2", name: "attempt_completion", input: { result: "coded" } }] },
      ],
      {
        workspace: ws.root,
        apiKey: KEY,
        agent: {
          autoApprove: { modeSwitch: true },
          profiles: { strong: { model: "gpt-4.1" }, cheap: { model: "gpt-4.1-nano", maxTokens: 2000 } },
          modeProfiles: { architect: "strong", code: "cheap" },
        },
      },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Plan, then code", mode: "code" })
    await server.waitForStatus(taskId, "completed", 30_000)
    await server.request("agent/setMode", { taskId, mode: "code" })
    const before = server.updatesOf(taskId).length
    await server.request("agent/sendMessage", { taskId, text: "now code it" })
    await server.waitFor(
      () =>
        server
          .updatesOf(taskId)
          .slice(before)
          .some((u) => u.kind === "completed"),
      30_000,
    )
    expect(server.updatesOf(taskId)).toContainEqual({
      kind: "status",
      status: "running",
      message: "Waiting for gpt-4.1 (profile strong, request 2)",
    })
    expect(api.requests.map((r) => [r.body.model, r.body.max_tokens])).toEqual([
      ["gpt-4.1-nano", 2000],
      ["gpt-4.1", 8192],
      ["gpt-4.1-nano", 2000],
    ])
  })

  it("reports cached prompt tokens in the usage updates, with a cost for a priced model", async () => {
    const ws = await tempWorkspace({})
    const { server } = await startOpenAiSession(
      [
        {
          toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "ok" } }],
          usage: { inputTokens: 200, outputTokens: 10, cacheReadTokens: 1800 },
        },
      ],
      { workspace: ws.root, apiKey: KEY },
    )
    const { taskId } = await server.request("agent/newTask", { text: "hi" })
    await server.waitForStatus(taskId, "completed", 20_000)
    const usage = server.updatesOf(taskId).find((u) => u.kind === "usage")
    // gpt-4o-mini: 200 × 0.15 + 1800 × 0.075 + 10 × 0.6 per million.
    expect(usage).toEqual({
      kind: "usage",
      inputTokens: 200,
      outputTokens: 10,
      cacheReadTokens: 1800,
      cacheWriteTokens: 0,
      costUsd: 0.000171,
    })
  })

  it("aborts a model stream that goes silent for modelIdleSeconds and retries it", async () => {
    const ws = await tempWorkspace({})
    const { server, api } = await startOpenAiSession(
      [
        { text: "stuck", hangAfterChunks: 1 },
        { toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "after the retry" } }] },
      ],
      { workspace: ws.root, apiKey: KEY, agent: { timeouts: { modelIdleSeconds: 0.5 } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "hi" })
    await server.waitForStatus(taskId, "completed", 20_000)
    expect(api.requests).toHaveLength(2)
    expect(api.closedEarly).toBe(1)
    expect(server.updatesOf(taskId)).toContainEqual({
      kind: "status",
      status: "running",
      message: expect.stringContaining("sent nothing for 0.5 s (agent.timeouts.modelIdleSeconds)"),
    })
  })
})
