import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import type { ParamsOf } from "@agent-lsp/protocol"
import { askFollowup, diffTarget, ProposedTexts, requestApproval } from "../../../clients/vscode/src/approvals"
import { AgentCommands } from "../../../clients/vscode/src/commands"
import { saveDocuments } from "../../../clients/vscode/src/save-documents"
import {
  agentCapabilities,
  explicitSettings,
  fillAgentCapabilities,
  initializationSettings,
  serverLaunch,
  settingLeaves,
  vscodeRipgrep,
} from "../../../clients/vscode/src/startup"
import { TaskState } from "../../../clients/vscode/src/task-state"
import { OutputTranscript } from "../../../clients/vscode/src/transcript"
import { FakeChannel, FakeClient, FakeVscode } from "./fake-vscode"

const options: ParamsOf<"requestApproval">["options"] = [
  { optionId: "o-allow", label: "Allow once", kind: "allow_once" },
  { optionId: "o-always", label: "Always allow", kind: "allow_always" },
  { optionId: "o-reject", label: "Reject", kind: "reject_once" },
]

function approval(extra: Partial<ParamsOf<"requestApproval">> = {}): ParamsOf<"requestApproval"> {
  return {
    requestId: "a1",
    taskId: "t1",
    callId: "c1",
    tool: "execute_command",
    title: "Run a command",
    detail: "in /ws",
    command: "npm test",
    options,
    ...extra,
  }
}

describe("VS Code approvals", () => {
  it("asks with a modal listing the options and answers the chosen option id", async () => {
    const fake = new FakeVscode()
    fake.modalAnswers.push("Always allow")
    const answer = await requestApproval(fake.api(), new ProposedTexts(), approval())
    expect(answer).toEqual({ optionId: "o-always" })
    const [[title, modal, ...labels]] = fake.callsTo("showWarningMessage")
    expect(title).toBe("Run a command")
    expect(modal).toMatchObject({ modal: true, detail: expect.stringContaining("$ npm test") })
    expect(labels).toEqual(["Allow once", "Always allow", "Reject"])
  })

  it("rejects when the modal is closed without a choice", async () => {
    const fake = new FakeVscode()
    fake.modalAnswers.push(undefined)
    fake.inputAnswers.push(undefined)
    expect(await requestApproval(fake.api(), new ProposedTexts(), approval())).toEqual({ optionId: "o-reject" })
  })

  it("sends the feedback typed after a rejection", async () => {
    const fake = new FakeVscode()
    fake.modalAnswers.push("Reject")
    fake.inputAnswers.push("use vitest instead")
    expect(await requestApproval(fake.api(), new ProposedTexts(), approval())).toEqual({
      optionId: "o-reject",
      feedback: "use vitest instead",
    })
  })

  it("opens a diff of the file against the proposed text before asking about an edit", async () => {
    const fake = new FakeVscode()
    const proposed = new ProposedTexts()
    let shownText: string | undefined
    fake.modalAnswers.push(() => {
      // While the modal is up, the diff's right side serves the proposed text.
      const right = fake.callsTo("executeCommand")[0]?.[2] as { toString(): string; fsPath: string } | undefined
      shownText = right && proposed.get(right)
      return "Allow once"
    })
    const api = fake.api()
    const answer = await requestApproval(
      api,
      proposed,
      approval({
        tool: "apply_diff",
        command: undefined,
        diff: "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n",
        proposedText: "b\n",
      }),
    )
    expect(answer).toEqual({ optionId: "o-allow" })
    const [command, left, right, title] = fake.callsTo("executeCommand")[0] as [string, { fsPath: string }, { toString(): string }, string]
    expect(command).toBe("vscode.diff")
    expect(left.fsPath).toBe("/ws/src/a.ts")
    expect(right.toString()).toMatch(/^agent-lsp-proposed:/)
    expect(title).toContain("Run a command")
    expect(shownText).toBe("b\n")
    // Forgotten once answered.
    expect(proposed.get(right as never)).toBe("")
  })

  it("reads the edited file from a unified diff header", () => {
    expect(diffTarget("--- a/x.ts\n+++ b/src/x.ts\t2024\n")).toBe("src/x.ts")
    expect(diffTarget("--- x\n+++ /dev/null\n")).toBeUndefined()
    expect(diffTarget("no diff")).toBeUndefined()
  })
})

describe("VS Code questions", () => {
  const question: ParamsOf<"askFollowup"> = {
    requestId: "q1",
    taskId: "t1",
    question: "Which file?",
    suggestions: [{ text: "a.ts" }, { text: "plan first", mode: "architect" }],
  }

  it("answers with the suggestion picked", async () => {
    const fake = new FakeVscode()
    fake.pickAnswers.push((items) => items[1])
    expect(await askFollowup(fake.api(), new TaskState(), question)).toEqual({ answer: "plan first" })
  })

  it("answers with typed words when the user picks to type", async () => {
    const fake = new FakeVscode()
    fake.pickAnswers.push((items) => items.at(-1))
    fake.inputAnswers.push("b.ts")
    expect(await askFollowup(fake.api(), new TaskState(), question)).toEqual({ answer: "b.ts" })
  })

  it("defers a dismissed question and lets the next Send Message answer it through agent/respond", async () => {
    const fake = new FakeVscode()
    const state = new TaskState()
    fake.pickAnswers.push(undefined)
    expect(await askFollowup(fake.api(), state, question)).toEqual({ deferred: true })
    const client = new FakeClient()
    state.active = "t1"
    fake.inputAnswers.push("c.ts")
    await new AgentCommands(fake.api(), client, state, new OutputTranscript(new FakeChannel())).sendMessage()
    expect(client.requests).toEqual([{ method: "agent/respond", params: { requestId: "q1", answer: "c.ts" } }])
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

describe("VS Code edits and questions as users see them", () => {
  it("shows a new file's whole content against an empty document, not a missing file, and closes the diff tab after the answer", async () => {
    const fake = new FakeVscode()
    const proposed = new ProposedTexts()
    let left: string | undefined
    let right: string | undefined
    fake.modalAnswers.push(() => {
      const [, l, r] = fake.callsTo("executeCommand")[0] as [
        string,
        { toString(): string; fsPath: string },
        { toString(): string; fsPath: string },
      ]
      left = l.toString().startsWith("file:") ? `disk:${l.fsPath}` : proposed.get(l)
      right = proposed.get(r)
      expect(fake.tabs).toHaveLength(1)
      return "Allow once"
    })
    const diff = "--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+export const a = 1\n+export const b = 2\n"
    const answer = await requestApproval(
      fake.api(),
      proposed,
      approval({ tool: "write_to_file", command: undefined, diff, proposedText: "export const a = 1\nexport const b = 2\n" }),
    )
    expect(answer).toEqual({ optionId: "o-allow" })
    expect(left).toBe("")
    expect(right).toBe("export const a = 1\nexport const b = 2\n")
    expect((fake.callsTo("executeCommand")[0] as string[])[3]).toContain("new file")
    expect(fake.tabs).toEqual([])
    expect(fake.closedTabs).toHaveLength(1)
  })

  it("shows a long question whole in a modal, with the suggestions as buttons", async () => {
    const fake = new FakeVscode()
    const question = `Which of the three logging libraries should the new CLI flag use, given that ${"the server already has one ".repeat(4)}?`
    fake.modalAnswers.push("pino")
    const answer = await askFollowup(fake.api(), new TaskState(), {
      requestId: "q1",
      taskId: "t1",
      question,
      suggestions: [{ text: "pino" }, { text: "winston" }],
    })
    expect(answer).toEqual({ answer: "pino" })
    const [[, options, ...buttons]] = fake.callsTo("showWarningMessage") as [string, { modal: boolean; detail: string }, ...string[]][]
    expect(options).toEqual({ modal: true, detail: question })
    expect(buttons).toEqual(["pino", "winston", "Type an answer…"])
    expect(fake.callsTo("showQuickPick")).toEqual([])
  })
})

describe("VS Code settings sent to the server", () => {
  const leaves = settingLeaves(JSON.parse(readFileSync(new URL("../../../clients/vscode/package.json", import.meta.url), "utf8")))

  it("reads the leaf settings and which are user-only from the manifest", () => {
    expect(leaves).toEqual(
      expect.arrayContaining([
        { key: "autoApprove.write", trusted: true },
        { key: "modes.default", trusted: false },
        { key: "contextWindow", trusted: false },
      ]),
    )
    expect(leaves.some((l) => l.key.startsWith("client."))).toBe(false)
  })

  it("answers workspace/configuration with nothing when the user set nothing (VS Code's defaults never reach the server)", () => {
    // What VS Code's inspect() answers for an untouched key: only defaultValue.
    expect(explicitSettings(leaves, (key) => ({ defaultValue: key === "contextWindow" ? null : 1 }) as never)).toEqual({})
  })

  it("sends workspace values of every key and user values of keys the server accepts there, nested", () => {
    const set: Record<string, { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }> = {
      baseUrl: { globalValue: "https://proxy.example" }, // trusted: goes in initializationOptions, not here
      maxTokens: { globalValue: 4096 },
      "modes.default": { globalValue: "code", workspaceValue: "architect" },
      "terminal.deny": { workspaceFolderValue: ["rm"] },
      "autoApprove.write": { workspaceValue: true }, // the server ignores (and reports) this one itself
    }
    expect(explicitSettings(leaves, (key) => set[key])).toEqual({
      maxTokens: 4096,
      modes: { default: "architect" },
      terminal: { deny: ["rm"] },
      autoApprove: { write: true },
    })
  })
})

describe("VS Code start-up", () => {
  it("declares every agent capability", () => {
    expect(agentCapabilities()).toEqual({
      requestApproval: true,
      askFollowup: true,
      saveDocuments: true,
      taskUpdates: true,
      deferredAnswers: true,
      languageFeature: true,
    })
  })

  it("adds experimental.agent and agentDiagnostics to the client's capabilities, keeping other experimental keys", () => {
    const capabilities: { experimental?: unknown; window?: unknown } = { window: { workDoneProgress: true }, experimental: { other: 1 } }
    fillAgentCapabilities(capabilities)
    expect(capabilities).toEqual({
      window: { workDoneProgress: true },
      experimental: { other: 1, agent: agentCapabilities(), agentDiagnostics: true },
    })
  })

  it("passes only user-level settings and VS Code's ripgrep in initializationOptions", () => {
    const inspect = (key: string) =>
      ({
        autoApprove: { globalValue: { write: true }, workspaceValue: { execute: true } },
        terminal: { workspaceValue: { allow: ["rm"] } },
        client: { globalValue: { serverPath: "/x" } },
      })[key]
    const agent = initializationSettings(["autoApprove", "terminal", "search", "client"], inspect, "/app/rg")
    expect(agent).toEqual({ autoApprove: { write: true }, search: { ripgrepPath: "/app/rg" } })
  })

  it("keeps a ripgrep path the user set over VS Code's", () => {
    const agent = initializationSettings(["search"], () => ({ globalValue: { ripgrepPath: "/mine/rg" } }), "/app/rg")
    expect(agent).toEqual({ search: { ripgrepPath: "/mine/rg" } })
  })

  it("finds VS Code's ripgrep in either of its known places", () => {
    const found = vscodeRipgrep("/app", (p) => p === "/app/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg", "linux")
    expect(found).toBe("/app/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg")
    expect(vscodeRipgrep("/app", () => false)).toBeUndefined()
    const universal = `/app/node_modules/@vscode/ripgrep-universal/bin/linux-${process.arch}/rg`
    expect(vscodeRipgrep("/app", (p) => p === universal, "linux")).toBe(universal)
  })

  it("runs a JavaScript server path on VS Code's Node and anything else as an executable", () => {
    expect(serverLaunch("/ext/server/agent-lsp.mjs")).toEqual({ kind: "module", module: "/ext/server/agent-lsp.mjs" })
    expect(serverLaunch("/usr/bin/agent-lsp")).toEqual({ kind: "executable", command: "/usr/bin/agent-lsp", args: ["--stdio"] })
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
