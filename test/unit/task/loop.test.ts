import { afterEach, describe, expect, it } from "vitest"
import type { TaskEvent } from "../../../server/src/task/events"
import { HangingModel } from "./hanging-model"
import { makeFixture, requestText, type Fixture } from "./service-fixture"

let fx: Fixture | undefined
afterEach(async () => {
  await fx?.cleanup()
  fx = undefined
})

const kinds = (updates: TaskEvent[]) => updates.map((u) => u.kind)

describe("the agent loop", () => {
  it("streams text, a partial tool call, the tool result and completed for a read_file → attempt_completion task", async () => {
    fx = await makeFixture({
      files: { "notes.txt": "alpha\nbeta\n" },
      turns: [
        { text: "Let me read the notes file first.", toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "The notes hold alpha and beta." } }] },
      ],
    })
    const { taskId } = await fx.service.newTask({ text: "What is in notes.txt?" })
    await fx.status(taskId, "completed")
    const updates = fx.updatesOf(taskId)

    const text = updates
      .filter((u) => u.kind === "text")
      .map((u) => (u as { delta: string }).delta)
      .join("")
    expect(text).toBe("Let me read the notes file first.")
    const streaming = updates.filter((u) => u.kind === "toolCall" && u.tool === "read_file" && u.status === "streaming") as {
      params: unknown
    }[]
    expect(streaming.some((u) => JSON.stringify(u.params) !== "{}" && JSON.stringify(u.params) !== '{"path":"notes.txt"}')).toBe(true)
    expect(updates).toContainEqual({
      kind: "toolResult",
      callId: "toolu_0_0",
      tool: "read_file",
      isError: false,
      summary: expect.any(String),
    })
    expect(updates).toContainEqual({ kind: "completed", result: "The notes hold alpha and beta." })
    expect(kinds(updates).indexOf("text")).toBeLessThan(kinds(updates).indexOf("toolResult"))
    expect(kinds(updates).indexOf("toolResult")).toBeLessThan(kinds(updates).indexOf("completed"))
    expect(updates).toContainEqual(expect.objectContaining({ kind: "usage", inputTokens: 200, outputTokens: 40 }))

    // The second request carried the file's content back as the tool result, and offered the tools natively.
    const second = fx.model.requests[1]!
    const result = second.messages.at(-1)!.content[0]!
    expect(result).toMatchObject({ type: "toolResult", toolUseId: "toolu_0_0", isError: false })
    expect(requestText(second)).toContain("alpha")
    expect(second.tools.map((t) => t.name)).toContain("read_file")
    expect(second.system).not.toContain('"properties"')

    const task = await fx.service.getTask(taskId)
    expect(task.status).toBe("completed")
    expect(task.messages[0]).toMatchObject({ role: "user", text: "What is in notes.txt?" })
    expect(task.messages[1]!.toolCalls![0]).toMatchObject({ tool: "read_file", params: { path: "notes.txt" }, result: { isError: false } })
  })

  it("runs parallel calls of one turn in order and sends one result per call in that order", async () => {
    fx = await makeFixture({
      files: { "a.txt": "AAA", "b.txt": "BBB", "c.txt": "CCC" },
      turns: [
        { toolCalls: ["c.txt", "a.txt", "b.txt"].map((path) => ({ name: "read_file", input: { path } })) },
        { toolCalls: [{ name: "attempt_completion", input: { result: "read three" } }] },
      ],
    })
    const { taskId } = await fx.service.newTask({ text: "read them" })
    await fx.status(taskId, "completed")
    const results = fx.model.requests[1]!.messages.at(-1)!.content
    expect(results.map((b) => (b as { toolUseId: string }).toolUseId)).toEqual(["toolu_0_0", "toolu_0_1", "toolu_0_2"])
    expect(results.map((b) => JSON.stringify(b).match(/AAA|BBB|CCC/)?.[0])).toEqual(["CCC", "AAA", "BBB"])
    const order = fx
      .updatesOf(taskId)
      .filter((u) => u.kind === "toolResult" && u.tool === "read_file")
      .map((u) => (u as { callId: string }).callId)
    expect(order).toEqual(["toolu_0_0", "toolu_0_1", "toolu_0_2"])
  })

  it("answers a call with broken JSON with an error result and carries on", async () => {
    fx = await makeFixture({
      turns: [
        { toolCalls: [{ name: "read_file", rawJson: '{"path": "x.txt"' }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "gave up" } }] },
      ],
    })
    const { taskId } = await fx.service.newTask({ text: "go" })
    await fx.status(taskId, "completed")
    expect(fx.model.requests[1]!.messages.at(-1)!.content[0]).toMatchObject({ type: "toolResult", isError: true })
  })

  it("runs new_task as a child task in the given mode and returns its result to the paused parent", async () => {
    fx = await makeFixture({
      turns: [
        { toolCalls: [{ name: "new_task", input: { mode: "ask", message: "Explain the build", todos: "[ ] look\n[ ] explain" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "It uses esbuild." } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "Parent done." } }] },
      ],
    })
    const { taskId } = await fx.service.newTask({ text: "Coordinate", mode: "orchestrator" })
    await fx.status(taskId, "completed")
    const parent = fx.updatesOf(taskId)
    const childId = (parent.find((u) => u.kind === "subtask") as { childTaskId: string }).childTaskId
    expect(parent).toContainEqual(expect.objectContaining({ kind: "status", status: "paused" }))
    expect(fx.updatesOf(childId)).toContainEqual({ kind: "completed", result: "It uses esbuild." })
    expect(fx.updatesOf(childId)).toContainEqual({
      kind: "todos",
      todos: [
        { text: "look", status: "pending" },
        { text: "explain", status: "pending" },
      ],
    })
    // The child's request starts from its own message in its own mode; the parent's next request has the child's result.
    expect(requestText(fx.model.requests[1]!)).toContain("Explain the build")
    expect(fx.model.requests[1]!.system).toContain('You are in mode "ask"')
    expect(requestText(fx.model.requests[2]!)).toContain("It uses esbuild.")
    const tasks = await fx.service.listTasks()
    expect(tasks.find((t) => t.taskId === childId)).toMatchObject({ parentId: taskId, mode: "ask", status: "completed" })
  })

  it("returns the user's answer to ask_followup_question and switches mode when the chosen suggestion names one", async () => {
    fx = await makeFixture({
      turns: [
        {
          toolCalls: [
            {
              name: "ask_followup_question",
              input: { question: "Plan first?", follow_up: [{ text: "Yes, plan", mode: "architect" }, { text: "No" }] },
            },
          ],
        },
        { toolCalls: [{ name: "attempt_completion", input: { result: "planned" } }] },
      ],
    })
    fx.ask.questionAnswer = () => ({ decision: "answered", answer: "Yes, plan" })
    const { taskId } = await fx.service.newTask({ text: "do it" })
    await fx.status(taskId, "completed")
    expect(fx.ask.questions[0]).toMatchObject({ taskId, question: "Plan first?" })
    expect(requestText(fx.model.requests[1]!)).toContain("Yes, plan")
    expect(fx.model.requests[1]!.system).toContain('You are in mode "architect"')
    expect(fx.updatesOf(taskId)).toContainEqual({ kind: "mode", mode: "architect" })
  })

  it("waits as `waiting` when a question gets no answer now, and takes agent/sendMessage as the answer", async () => {
    fx = await makeFixture({
      turns: [
        {
          toolCalls: [
            { name: "ask_followup_question", input: { question: "Which colour?", follow_up: [{ text: "red" }, { text: "blue" }] } },
          ],
        },
        { toolCalls: [{ name: "attempt_completion", input: { result: "green it is" } }] },
      ],
    })
    fx.ask.questionAnswer = () => ({ decision: "noAnswer", reason: "waitForMessage" })
    const { taskId } = await fx.service.newTask({ text: "pick" })
    await fx.status(taskId, "waiting")
    expect((await fx.service.listTasks())[0]!.status).toBe("waiting")
    await fx.service.sendMessage(taskId, "green")
    await fx.status(taskId, "completed")
    expect(requestText(fx.model.requests[1]!)).toContain("<answer>\\ngreen\\n</answer>")
  })

  it("continues a completed task when the user sends another message", async () => {
    fx = await makeFixture({
      turns: [
        { toolCalls: [{ name: "attempt_completion", input: { result: "first" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "second" } }] },
      ],
    })
    const { taskId } = await fx.service.newTask({ text: "one" })
    await fx.status(taskId, "completed")
    await fx.service.sendMessage(taskId, "now also two")
    await new Promise<void>((resolve) => {
      const stop = fx!.service.onEvent((id, u) => u.kind === "completed" && u.result === "second" && (stop(), resolve()))
    })
    const last = fx.model.requests[1]!.messages.at(-1)!
    expect(last.role).toBe("user")
    expect(JSON.stringify(last)).toContain("now also two")
  })

  it("refuses a second task in the same workspace folder while one runs, naming the running task", async () => {
    fx = await makeFixture({ provider: new HangingModel() })
    const { taskId } = await fx.service.newTask({ text: "long job" })
    await expect(fx.service.newTask({ text: "another" })).rejects.toThrow(new RegExp(`Task ${taskId} \\("long job"\\) is running`))
  })

  it("asks the user to continue after agent.limits.requestsPerTask requests and stops when told to", async () => {
    fx = await makeFixture({
      files: { "a.txt": "A" },
      turns: [
        { toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] },
        { toolCalls: [{ name: "list_files", input: { path: "." } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
      ],
      settings: (s) => (s.limits.requestsPerTask = 2),
    })
    fx.ask.questionAnswer = () => ({ decision: "answered", answer: "Stop" })
    const { taskId } = await fx.service.newTask({ text: "go" })
    await fx.status(taskId, "waiting")
    expect(fx.ask.questions.at(-1)!.question).toContain("agent.limits.requestsPerTask = 2")
    expect(fx.model.requests).toHaveLength(2)
  })

  it("filters the offered tools anew after switch_mode and shows the todo list to the model in the next request", async () => {
    fx = await makeFixture({
      turns: [
        {
          toolCalls: [
            { name: "update_todo_list", input: { todos: "[x] look\n[-] explain" } },
            { name: "switch_mode", input: { mode_slug: "ask", reason: "only questions" } },
          ],
        },
        { toolCalls: [{ name: "attempt_completion", input: { result: "explained" } }] },
      ],
      settings: (s) => (s.autoApprove.modeSwitch = true),
    })
    const { taskId } = await fx.service.newTask({ text: "explain it" })
    await fx.status(taskId, "completed")
    const [first, second] = fx.model.requests
    expect(first!.tools.map((t) => t.name)).toContain("write_to_file")
    expect(second!.tools.map((t) => t.name)).not.toContain("write_to_file")
    expect(second!.tools.map((t) => t.name)).toContain("read_file")
    expect(requestText(second!)).toContain("Current todo list")
    expect(requestText(second!)).toContain("[-] explain")
    expect(fx.updatesOf(taskId)).toContainEqual({
      kind: "todos",
      todos: [
        { text: "look", status: "completed" },
        { text: "explain", status: "in_progress" },
      ],
    })
    expect((await fx.service.getTask(taskId)).todos).toHaveLength(2)
  })

  it("asks the user to continue once the estimated cost passes agent.limits.costUsd", async () => {
    fx = await makeFixture({
      turns: [
        { toolCalls: [{ name: "update_todo_list", input: { todos: "[ ] a" } }], usage: { inputTokens: 1000, outputTokens: 100 } },
        { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
      ],
      settings: (s) => (s.limits.costUsd = 0.001),
    })
    fx.ask.questionAnswer = () => ({ decision: "answered", answer: "Continue" })
    const { taskId } = await fx.service.newTask({ text: "spend" })
    await fx.status(taskId, "completed")
    expect(fx.ask.questions.map((q) => q.question)).toEqual([expect.stringContaining("agent.limits.costUsd = 0.001")])
    const usage = fx
      .updatesOf(taskId)
      .filter((u) => u.kind === "usage")
      .at(-1) as { costUsd: number }
    expect(usage.costUsd).toBeGreaterThan(0.001)
  })

  it("shows a provider retry as a running status with the retry message", async () => {
    const retrying = {
      async *stream() {
        yield {
          kind: "retry" as const,
          attempt: 1,
          delayMs: 0,
          message: "The Anthropic API is overloaded (529). Retrying in 0 ms (retry 1 of 4).",
        }
        yield { kind: "toolCallStart" as const, id: "t1", name: "attempt_completion" }
        yield { kind: "toolCallDelta" as const, id: "t1", delta: '{"result":"ok"}' }
        yield { kind: "toolCallEnd" as const, id: "t1" }
        yield { kind: "stop" as const, reason: "tool_use" as const }
      },
    }
    fx = await makeFixture({ provider: retrying })
    const { taskId } = await fx.service.newTask({ text: "go" })
    await fx.status(taskId, "completed")
    expect(fx.updatesOf(taskId)).toContainEqual({ kind: "status", status: "running", message: expect.stringContaining("overloaded (529)") })
  })
})
