import { describe, expect, it } from "vitest"
import type { ParamsOf } from "@agent-lsp/protocol"
import { askFollowup, diffTarget, ProposedTexts, requestApproval } from "../../../clients/vscode/src/approvals"
import { AgentCommands } from "../../../clients/vscode/src/commands"
import { TaskState } from "../../../clients/vscode/src/task-state"
import { OutputTranscript } from "../../../clients/vscode/src/transcript"
import { FakeChannel, FakeClient, FakeVscode } from "./fake-vscode"

/** How the VS Code extension asks the user: approvals (with the diff of an edit) and the model's questions. */

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
