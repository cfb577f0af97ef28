import { describe, expect, it } from "vitest"
import { askFollowupQuestion } from "../../../../server/src/tools/ask-followup-question"
import { attemptCompletion } from "../../../../server/src/tools/attempt-completion"
import { fetchInstructions } from "../../../../server/src/tools/fetch-instructions"
import { newTask } from "../../../../server/src/tools/new-task"
import { switchMode } from "../../../../server/src/tools/switch-mode"
import { formatTodoList } from "../../../../server/src/prompt/todo-list"
import { parseTodoList, updateTodoList } from "../../../../server/src/tools/update-todo-list"
import { makeToolContext } from "../../../support/tool-context"
import { runTool, text } from "./run-tool"

const root = "/tmp/not-used"

describe("update_todo_list", () => {
  it("parses [ ], [-] and [x] items, with or without a list marker, ignoring other lines", () => {
    expect(parseTodoList("Plan:\n- [x] read config\n[-] add flag\n1. [ ] write test\n  * [X] done too\nnot an item")).toEqual([
      { text: "read config", status: "completed" },
      { text: "add flag", status: "in_progress" },
      { text: "write test", status: "pending" },
      { text: "done too", status: "completed" },
    ])
  })

  it("parses back the list the model is shown with each request (prompt/todo-list.ts)", () => {
    const todos = [
      { text: "read config", status: "completed" as const },
      { text: "add flag", status: "in_progress" as const },
      { text: "write test", status: "pending" as const },
    ]
    expect(formatTodoList(todos)).toBe("[x] read config\n[-] add flag\n[ ] write test")
    expect(parseTodoList(formatTodoList(todos))).toEqual(todos)
  })

  it("hands the parsed list to the task and reports progress", async () => {
    const ctx = makeToolContext(root)
    const result = await runTool(updateTodoList, { todos: "[x] a\n[ ] b" }, ctx)
    expect(result.isError).toBe(false)
    expect(text(result)).toBe("Todo list updated (1 of 2 completed).")
    expect(ctx.task.todos).toEqual([
      { text: "a", status: "completed" },
      { text: "b", status: "pending" },
    ])
  })

  it("refuses text with no checklist items and says how to write one", async () => {
    const ctx = makeToolContext(root)
    const result = await runTool(updateTodoList, { todos: "do things\nthen more" }, ctx)
    expect(result.isError).toBe(true)
    expect(text(result)).toContain('"[ ] pending"')
    expect(ctx.task.todos).toBeUndefined()
  })
})

describe("attempt_completion", () => {
  it("completes the task with the result and needs no approval", async () => {
    const ctx = makeToolContext(root)
    const result = await runTool(attemptCompletion, { result: "Added --verbose." }, ctx)
    expect(ctx.task.completedWith).toBe("Added --verbose.")
    expect(result.previewSubject).toEqual({ kind: "none" })
  })
})

describe("switch_mode", () => {
  it("switches through the task with a modeSwitch approval subject", async () => {
    const ctx = makeToolContext(root)
    const result = await runTool(switchMode, { mode_slug: "architect", reason: "plan first" }, ctx)
    expect(result.previewSubject).toEqual({ kind: "modeSwitch", mode: "architect" })
    expect(ctx.task.modeSwitches).toEqual([{ slug: "architect", reason: "plan first" }])
    expect(text(result)).toContain('from "code" to "architect"')
  })

  it("refuses an unknown mode with the list of modes, without switching", async () => {
    const ctx = makeToolContext(root)
    const result = await runTool(switchMode, { mode_slug: "wizard" }, ctx)
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("code, architect, ask, debug, orchestrator")
    expect(ctx.task.modeSwitches).toEqual([])
  })
})

describe("new_task", () => {
  it("starts a subtask with parsed todos and returns its result", async () => {
    const ctx = makeToolContext(root)
    ctx.task.subtaskResult = "wrote the parser"
    const result = await runTool(newTask, { mode: "code", message: "Write the parser", todos: "[ ] tokens\n[ ] tree" }, ctx)
    expect(ctx.task.subtasks).toEqual([
      {
        mode: "code",
        message: "Write the parser",
        todos: [
          { text: "tokens", status: "pending" },
          { text: "tree", status: "pending" },
        ],
      },
    ])
    expect(result.previewSubject).toEqual({ kind: "subtask", mode: "code" })
    expect(text(result)).toContain("wrote the parser")
  })

  it("refuses an unknown mode without starting anything", async () => {
    const ctx = makeToolContext(root)
    const result = await runTool(newTask, { mode: "nope", message: "x" }, ctx)
    expect(result.isError).toBe(true)
    expect(ctx.task.subtasks).toEqual([])
  })
})

describe("ask_followup_question", () => {
  it("asks with the suggestions and returns the answer", async () => {
    const ctx = makeToolContext(root)
    ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "Use YAML" })
    const result = await runTool(
      askFollowupQuestion,
      { question: "Which format?", follow_up: [{ text: "Use YAML" }, { text: "Use JSON" }] },
      ctx,
    )
    expect(ctx.ask.questions).toEqual([
      { taskId: "t1", question: "Which format?", suggestions: [{ text: "Use YAML" }, { text: "Use JSON" }] },
    ])
    expect(text(result)).toContain("<answer>\nUse YAML\n</answer>")
    expect(ctx.task.modeSwitches).toEqual([])
  })

  it("switches mode when the chosen suggestion names one", async () => {
    const ctx = makeToolContext(root)
    ctx.ask.questionAnswer = () => ({ decision: "answered", answer: "Plan it first" })
    await runTool(
      askFollowupQuestion,
      { question: "How?", follow_up: [{ text: "Plan it first", mode: "architect" }, { text: "Just do it" }] },
      ctx,
    )
    expect(ctx.task.modeSwitches.map((s) => s.slug)).toEqual(["architect"])
  })

  it("tells the model when the user gave no answer", async () => {
    const ctx = makeToolContext(root)
    ctx.ask.questionAnswer = () => ({ decision: "noAnswer", reason: "timeout" })
    const result = await runTool(askFollowupQuestion, { question: "Which?" }, ctx)
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("did not answer (timeout)")
  })
})

describe("fetch_instructions", () => {
  it("returns the create_mode how-to with the .roomodes format", async () => {
    const result = await runTool(fetchInstructions, { task: "create_mode" }, makeToolContext(root))
    expect(text(result)).toContain("customModes:")
  })

  it("rejects an unknown how-to at the params step", () => {
    expect(fetchInstructions.params.safeParse({ task: "make_coffee" }).success).toBe(false)
  })
})
