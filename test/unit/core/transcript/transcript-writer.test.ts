import { readFile, stat, writeFile, mkdir } from "node:fs/promises"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import type { TaskUpdate } from "@agent-lsp/protocol"
import { TranscriptWriter, transcriptDir } from "../../../../server/src/core/transcript/index"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { FakeTranscriptEditor } from "./fake-transcript-editor"

let state: TempWorkspace
let editor: FakeTranscriptEditor
let writer: TranscriptWriter

beforeEach(async () => {
  state = await tempWorkspace()
  editor = new FakeTranscriptEditor()
  writer = new TranscriptWriter({ dir: transcriptDir(state.root), io: editor.io(), flushDelayMs: 5 })
})
afterEach(async () => {
  await state.cleanup()
})

const taskRun: TaskUpdate[] = [
  { kind: "text", delta: "I will read " },
  { kind: "text", delta: "the file.\n" },
  { kind: "toolCall", callId: "c1", tool: "read_file", params: { path: "src/a.ts" }, status: "streaming" },
  { kind: "toolCall", callId: "c1", tool: "read_file", params: { path: "src/a.ts" }, status: "running" },
  { kind: "toolResult", callId: "c1", tool: "read_file", isError: false, summary: "read 3 lines" },
  { kind: "toolCall", callId: "c2", tool: "execute_command", params: { command: "npm test" }, status: "running" },
  { kind: "commandOutput", callId: "c2", chunk: "ok 1\nok 2\n" },
  { kind: "toolResult", callId: "c2", tool: "execute_command", isError: false, summary: "exit 0" },
  {
    kind: "todos",
    todos: [
      { text: "fix é 🙂", status: "completed" },
      { text: "test", status: "pending" },
    ],
  },
  { kind: "completed", result: "Fixed the bug." },
]

describe("TranscriptWriter", () => {
  it("shows a new task's transcript without taking focus, from a markdown file under the state directory", async () => {
    await writer.startTask("t1", "fix the bug", "fix the bug in a.ts")
    const path = join(state.root, "transcripts", "t1.md")
    expect(editor.shown).toEqual([{ uri: writer.uriOf("t1"), takeFocus: false }])
    expect(writer.uriOf("t1")).toBe(`file://${path}`)
    const text = await readFile(path, "utf8")
    expect(text).toBe("# fix the bug\n\n_task t1_\n\n\n> fix the bug in a.ts\n\n")
    expect((await stat(path)).mode & 0o777).toBe(0o600)
  })

  it("keeps the editor's copy (appended through applyEdit) equal to the file on disk as the task runs", async () => {
    await writer.startTask("t1", "fix the bug")
    for (const update of taskRun) writer.onEvent("t1", update)
    await writer.flush("t1")
    const disk = await readFile(writer.pathOf("t1"), "utf8")
    expect(editor.buffers.get(writer.uriOf("t1")!)).toBe(disk)
    expect(disk).toContain("I will read the file.\n\n- **read_file** `src/a.ts` — running\n  ✓ read 3 lines\n")
    expect(disk).toContain("- **execute_command** `npm test` — running\n```\nok 1\nok 2\n```\n  ✓ exit 0\n")
    expect(disk).toContain("**Todos**\n- [x] fix é 🙂\n- [ ] test\n")
    expect(disk.endsWith("## Completed\n\nFixed the bug.\n")).toBe(true)
    // Only edits that append: every edit is an insert at the end of what the editor held.
    for (const { edits } of editor.edits) expect(edits[0].range.start).toEqual(edits[0].range.end)
  })

  it("batches streamed text into fewer applyEdits than events", async () => {
    await writer.startTask("t1", "count")
    for (let i = 0; i < 50; i++) writer.onEvent("t1", { kind: "text", delta: `word${i} ` })
    await writer.flush("t1")
    expect(editor.edits.length).toBeLessThan(5)
    expect(editor.buffers.get(writer.uriOf("t1")!)).toContain("word0 word1 ")
  })

  it("truncates long command output and says how many lines were left out", async () => {
    const small = new TranscriptWriter({
      dir: transcriptDir(state.root),
      io: editor.io(),
      flushDelayMs: 5,
      render: { maxOutputLines: 3, maxLineChars: 10 },
    })
    await small.startTask("t2", "noisy")
    small.onEvent("t2", { kind: "commandOutput", callId: "c1", chunk: "1\n2\n3\n4\n5\n" })
    small.onEvent("t2", { kind: "commandOutput", callId: "c1", chunk: `6\n${"x".repeat(30)}\n` })
    small.onEvent("t2", { kind: "toolResult", callId: "c1", tool: "execute_command", isError: true, summary: "exit 2" })
    await small.flush()
    const text = small.contentOf("t2")!
    expect(text).toContain("```\n1\n2\n3\n```\n_(output truncated: 4 more lines)_\n  ✗ exit 2\n")
    expect(text).not.toContain("xxxxxxxxxxx")
  })

  it("lists a pending approval with its requestId and the agent.respond command for each option", async () => {
    await writer.startTask("t1", "run tests")
    await writer.pendingApproval("a7", {
      taskId: "t1",
      callId: "c3",
      tool: "execute_command",
      title: "Run a command",
      detail: "in /work",
      command: "npm test",
      options: [
        { optionId: "allow_once", label: "Allow once", kind: "allow_once" },
        { optionId: "reject_once", label: "Reject", kind: "reject_once" },
      ],
    })
    writer.answered("t1", "a7", "allowed once")
    await writer.flush()
    const text = await readFile(writer.pathOf("t1"), "utf8")
    expect(text).toContain("### Approval needed (`a7`): Run a command")
    expect(text).toContain("```sh\nnpm test\n```")
    expect(text).toContain('- Allow once: `:lsp-workspace-command agent.respond "a7" "allow_once"`')
    expect(text).toContain('- Reject: `:lsp-workspace-command agent.respond "a7" "reject_once"`')
    expect(text).toContain('feedback for the agent: `:lsp-workspace-command agent.respond "a7" "reject_once" "what to do instead"`')
    expect(text).toContain("_`a7`: allowed once_")
    expect(editor.buffers.get(writer.uriOf("t1")!)).toBe(text)
  })

  it("lists a pending question with its suggestions as agent.respond commands", async () => {
    await writer.startTask("t1", "ask")
    await writer.pendingQuestion("a8", {
      taskId: "t1",
      question: "Which file?",
      suggestions: [{ text: "a.ts" }, { text: "plan it", mode: "architect" }],
    })
    const text = writer.contentOf("t1")!
    expect(text).toContain("### Question (`a8`): Which file?")
    expect(text).toContain('- `:lsp-workspace-command agent.respond "a8" "a.ts"`')
    expect(text).toContain("(mode: architect)")
  })

  it("still writes the disk and carries on when the editor refuses the edits", async () => {
    await writer.startTask("t1", "x")
    editor.refuseEdits = true
    writer.onEvent("t1", { kind: "completed", result: "done" })
    await writer.flush()
    expect(await readFile(writer.pathOf("t1"), "utf8")).toContain("## Completed\n\ndone\n")
  })

  it("shows a transcript again with focus for agent.showTranscript, and reports a task without one", async () => {
    await writer.startTask("t1", "x")
    expect(await writer.show("t1")).toBe(true)
    expect(editor.shown.at(-1)).toEqual({ uri: writer.uriOf("t1"), takeFocus: true })
    expect(await writer.show("nope")).toBe(false)
  })

  it("continues a transcript from its file for a task resumed after a restart", async () => {
    await mkdir(transcriptDir(state.root), { recursive: true })
    await writeFile(writer.pathOf("old"), "# earlier\n\nsome text\n")
    writer.onEvent("old", { kind: "text", delta: "resumed work" })
    await writer.flush()
    expect(await readFile(writer.pathOf("old"), "utf8")).toBe("# earlier\n\nsome text\n\n---\n\n_continued_\n\nresumed work")
  })

  it("gives a subtask its own transcript, shown without focus", async () => {
    await writer.startTask("t1", "parent")
    writer.onEvent("t1", { kind: "subtask", childTaskId: "t1.1" })
    await writer.flush()
    expect(editor.shown.map((s) => s.uri)).toContain(writer.uriOf("t1.1"))
    expect(await readFile(writer.pathOf("t1.1"), "utf8")).toContain("# Subtask of t1")
  })

  it("puts the title on top even when the task's first events arrive before startTask", async () => {
    writer.onEvent("t1", { kind: "text", delta: "early words" })
    await writer.flush()
    await writer.startTask("t1", "late title", "the request")
    await writer.flush()
    const text = await readFile(writer.pathOf("t1"), "utf8")
    expect(text.startsWith("# late title\n\n_task t1_\n\nearly words")).toBe(true)
    expect(text).toContain("> the request")
    expect(editor.buffers.get(writer.uriOf("t1")!)).toBe(text)
  })
})
