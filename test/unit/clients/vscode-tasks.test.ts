import { describe, expect, it } from "vitest"
import { AgentCommands } from "../../../clients/vscode/src/commands"
import { saveDocuments } from "../../../clients/vscode/src/save-documents"
import { TaskState } from "../../../clients/vscode/src/task-state"
import { OutputTranscript } from "../../../clients/vscode/src/transcript"
import { FakeChannel, FakeClient, FakeVscode } from "./fake-vscode"

/** The task as a VS Code user drives and follows it: the commands, the active task, the transcript channel, saving documents. */

describe("VS Code commands", () => {
  it("starts a task with the selection as context and makes it active", async () => {
    const fake = new FakeVscode()
    const client = new FakeClient({ "agent/newTask": { taskId: "t9" } })
    const state = new TaskState()
    const channel = new FakeChannel()
    fake.inputAnswers.push("explain this")
    const selection = { uri: "file:///ws/a.ts", range: { start: { line: 1, character: 0 }, end: { line: 3, character: 2 } } }
    expect(await new AgentCommands(fake.api(), client, state, new OutputTranscript(channel)).newTask(selection)).toBe("t9")
    expect(client.requests).toEqual([{ method: "agent/newTask", params: { text: "explain this", context: [selection] } }])
    expect(state.active).toBe("t9")
    expect(channel.text).toContain("task t9: explain this")
  })

  it("completes a lone / from the server's slash commands in a quick pick, then asks for the arguments", async () => {
    const fake = new FakeVscode()
    const client = new FakeClient({
      "agent/listCommands": {
        commands: [
          { name: "init", description: "Write AGENTS.md", source: "builtin" },
          { name: "review", description: "Review a file", argumentHint: "<path>", source: "workspace" },
        ],
      },
      "agent/newTask": { taskId: "t4" },
    })
    fake.inputAnswers.push("/re", "src/app.js")
    fake.pickAnswers.push((items) => items[0])
    const commands = new AgentCommands(fake.api(), client, new TaskState(), new OutputTranscript(new FakeChannel()))
    expect(await commands.newTask()).toBe("t4")
    const [items] = fake.callsTo("showQuickPick")[0] as [{ label: string; detail?: string }[]]
    expect(items.map((i) => [i.label, i.detail])).toEqual([["/review", "Review a file"]])
    expect(fake.callsTo("showInputBox")[1]).toEqual([
      { prompt: "Arguments for /review (may be empty)", placeHolder: "<path>", ignoreFocusOut: true },
    ])
    expect(client.requests).toEqual([
      { method: "agent/listCommands", params: {} },
      { method: "agent/newTask", params: { text: "/review src/app.js" } },
    ])
  })

  it("sends ordinary text and unknown /words as typed, and nothing when the slash picker is dismissed", async () => {
    const fake = new FakeVscode()
    const client = new FakeClient({
      "agent/listCommands": { commands: [{ name: "init", source: "builtin" }] },
      "agent/newTask": { taskId: "t5" },
    })
    const commands = new AgentCommands(fake.api(), client, new TaskState(), new OutputTranscript(new FakeChannel()))
    fake.inputAnswers.push("/etc/hosts is broken", "/zzz", "/")
    fake.pickAnswers.push(undefined)
    await commands.newTask()
    await commands.newTask()
    expect(await commands.newTask()).toBeUndefined()
    expect(client.requests.filter((r) => r.method === "agent/newTask").map((r) => (r.params as { text: string }).text)).toEqual([
      "/etc/hosts is broken",
      "/zzz",
    ])
  })

  it("sets the mode of the next task, not of a finished active task", async () => {
    const fake = new FakeVscode()
    const client = new FakeClient({
      "agent/listModes": {
        defaultMode: "code",
        modes: [{ slug: "architect", name: "Architect", description: "", groups: [], source: "builtin" }],
      },
    })
    const state = new TaskState()
    state.apply("t1", { kind: "status", status: "running" })
    state.apply("t1", { kind: "completed", result: "done" })
    fake.pickAnswers.push((items) => items[0])
    await new AgentCommands(fake.api(), client, state, new OutputTranscript(new FakeChannel())).setMode()
    expect(client.requests.at(-1)).toEqual({ method: "agent/setMode", params: { mode: "architect" } })
    expect((fake.callsTo("showQuickPick")[0]![1] as { placeHolder: string }).placeHolder).toContain("next task")
  })

  it("sets the mode picked from the server's modes on the active task", async () => {
    const fake = new FakeVscode()
    const client = new FakeClient({
      "agent/listModes": {
        defaultMode: "code",
        modes: [
          { slug: "code", name: "Code", description: "", groups: [], source: "builtin" },
          { slug: "architect", name: "Architect", description: "", groups: [], source: "builtin" },
        ],
      },
    })
    const state = new TaskState()
    state.active = "t1"
    fake.pickAnswers.push((items) => items.find((i) => i.label === "architect"))
    await new AgentCommands(fake.api(), client, state, new OutputTranscript(new FakeChannel())).setMode()
    expect(client.requests.at(-1)).toEqual({ method: "agent/setMode", params: { mode: "architect", taskId: "t1" } })
  })

  it("cancels the active task, and warns instead of sending when there is none", async () => {
    const fake = new FakeVscode()
    const client = new FakeClient()
    const state = new TaskState()
    const commands = new AgentCommands(fake.api(), client, state, new OutputTranscript(new FakeChannel()))
    await commands.cancelTask()
    expect(client.requests).toEqual([])
    expect(fake.callsTo("showWarningMessage")).toHaveLength(1)
    state.active = "t2"
    await commands.cancelTask()
    expect(client.requests).toEqual([{ method: "agent/cancelTask", params: { taskId: "t2" } }])
  })

  it("offers to resume an interrupted task picked in Show Tasks", async () => {
    const fake = new FakeVscode()
    const task = { taskId: "t3", title: "old work", mode: "code", status: "interrupted", createdAt: "x", updatedAt: "y" }
    const client = new FakeClient({
      "agent/listTasks": { tasks: [task] },
      "agent/getTask": { ...task, messages: [{ role: "user", at: "x", text: "old work" }], todos: [] },
    })
    const api = fake.api()
    api.window.showInformationMessage = async () => "Resume"
    fake.pickAnswers.push((items) => items[0])
    const state = new TaskState()
    await new AgentCommands(api, client, state, new OutputTranscript(new FakeChannel())).showTasks()
    expect(state.active).toBe("t3")
    expect(client.requests.map((r) => r.method)).toEqual(["agent/listTasks", "agent/getTask", "agent/resumeTask"])
  })
})

describe("VS Code saveDocuments", () => {
  it("saves dirty open documents and reports them with clean ones; skips documents that are not open or fail to save", async () => {
    const fake = new FakeVscode()
    const dirty = fake.document("/ws/a.ts", true)
    const clean = fake.document("/ws/b.ts", false)
    fake.document("/ws/c.ts", true, false)
    const result = await saveDocuments(fake.api(), {
      uris: ["file:///ws/a.ts", "file:///ws/b.ts", "file:///ws/c.ts", "file:///ws/closed.ts"],
    })
    expect(result).toEqual({ saved: ["file:///ws/a.ts", "file:///ws/b.ts"] })
    expect(dirty.saves).toBe(1)
    expect(clean.saves).toBe(0)
  })
})

describe("VS Code task state", () => {
  it("follows a task started elsewhere, a subtask while it runs, then its parent again", () => {
    const state = new TaskState()
    state.apply("p1", { kind: "status", status: "running" })
    expect(state.active).toBe("p1")
    state.apply("p1", { kind: "subtask", childTaskId: "c1" })
    expect(state.active).toBe("c1")
    state.apply("c1", { kind: "status", status: "running" })
    state.apply("c1", { kind: "completed", result: "done" })
    expect(state.active).toBe("p1")
    expect(state.label()).toBe("agent: running")
  })
})

describe("VS Code transcript channel", () => {
  it("streams text, shows each tool call status once, results, todos and completion", () => {
    const channel = new FakeChannel()
    const t = new OutputTranscript(channel)
    t.start("t1", "do it")
    t.update("t1", { kind: "text", delta: "Reading" })
    t.update("t1", { kind: "toolCall", callId: "c", tool: "read_file", params: { path: "a" }, status: "streaming" })
    t.update("t1", { kind: "toolCall", callId: "c", tool: "read_file", params: { path: "a.ts" }, status: "running" })
    t.update("t1", { kind: "toolCall", callId: "c", tool: "read_file", params: { path: "a.ts" }, status: "running" })
    t.update("t1", { kind: "toolResult", callId: "c", tool: "read_file", isError: false, summary: "3 lines" })
    t.update("t1", { kind: "todos", todos: [{ text: "x", status: "completed" }] })
    t.update("t1", { kind: "completed", result: "Done." })
    expect(channel.text).toBe(
      "\n=== task t1: do it\nReading\n> read_file a.ts [running]\n  ✓ 3 lines\ntodos: [x] x\n=== completed\nDone.\n",
    )
  })

  it("heads a task once when its first updates arrive before the newTask answer, and names other tasks only when they write", () => {
    const channel = new FakeChannel()
    const t = new OutputTranscript(channel)
    t.update("t1", { kind: "status", status: "running" })
    t.start("t1", "do it")
    t.update("t1", { kind: "toolCall", callId: "c", tool: "attempt_completion", params: { result: "x" }, status: "running" })
    t.update("t2", { kind: "status", status: "running" })
    t.update("t1", { kind: "text", delta: "more\n" })
    t.update("t2", { kind: "text", delta: "other\n" })
    expect(channel.text).toBe("\n=== task t1: do it\n> attempt_completion [running]\nmore\n--- task t2\nother\n")
  })
})
