import { existsSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { runCliToEnd } from "../support/cli-process"
import type { FakeReply } from "../support/fake-anthropic"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { startSession, toolResultIn } from "../support/session"

/**
 * A prompt-injected model tries to leave the limits the user set for a headless run (`agent-lsp run`), where
 * nobody is present: the front answers questions itself, so no answer of its own may accept a plan or switch
 * the mode a suggestion names.
 */

const complete: FakeReply = { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }

describe("the model cannot raise its own permissions in a headless run", () => {
  it("refuses exit_plan_mode when nobody is present to accept the plan, so plan mode keeps refusing writes", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      { toolCalls: [{ id: "toolu_plan", name: "exit_plan_mode", input: { plan: "1. write pwned.txt" } }] },
      { toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "pwned.txt", content: "x\n" } }] },
      complete,
    ])
    const { stderr } = await runCliToEnd(["run", "--permission-mode", "plan", "--auto-approve", "write", "plan a change"], {
      cwd: ws.root,
      apiUrl: api.url,
    })
    expect(existsSync(ws.path("pwned.txt")), stderr).toBe(false)
    expect(JSON.stringify(toolResultIn(api.requests[1]!, "toolu_plan"))).toMatch(/nobody is present to accept/)
    expect(JSON.stringify(toolResultIn(api.requests[2]!, "toolu_w"))).toMatch(/plan mode/)
  })

  it("does not switch to the mode a suggestion names when the headless front picks that suggestion itself", async () => {
    const ws = await scopedWorkspace()
    const question = {
      question: "Shall I go on?",
      follow_up: [{ text: "Yes", mode: "code" }, { text: "No" }],
    }
    const api = await scopedFake([
      { toolCalls: [{ id: "toolu_q", name: "ask_followup_question", input: question }] },
      { toolCalls: [{ id: "toolu_c", name: "execute_command", input: { command: "touch pwned.txt" } }] },
      complete,
    ])
    const { stderr } = await runCliToEnd(["run", "--mode", "ask", "--auto-approve", "command,write", "look around"], {
      cwd: ws.root,
      apiUrl: api.url,
    })
    expect(existsSync(ws.path("pwned.txt")), stderr).toBe(false)
    expect(JSON.stringify(toolResultIn(api.requests[1]!, "toolu_q"))).not.toMatch(/Switched/)
    expect(JSON.stringify(toolResultIn(api.requests[2]!, "toolu_c"))).toMatch(/not available in ask mode|ask mode/)
  })
})

describe("a question's suggestion that switches the mode says so to the user", () => {
  it("names the mode in the window/showMessageRequest action a plain LSP client shows, and still switches when it is picked", async () => {
    const ws = await scopedWorkspace()
    const question = { question: "Anything else?", follow_up: [{ text: "No, keep reading", mode: "code" }, { text: "Stop" }] }
    const { server, api } = await startSession(
      [{ toolCalls: [{ id: "toolu_q", name: "ask_followup_question", input: question }] }, complete],
      {
        workspace: ws.root,
        capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } }, window: { showMessage: {} } },
      },
    )
    server.handlers.showMessageRequest = (params) => params.actions?.[0] ?? null
    const { taskId } = await server.request("agent/newTask", { text: "read around", mode: "ask" })
    // A plain client gets no agent/taskUpdate: wait for the question, then for the second model request.
    await server.waitFor(() => (api.requests.length >= 2 ? true : undefined), 20_000, "the model's second request")
    const asked = server.serverRequests.find((r) => r.method === "window/showMessageRequest")!.params
    expect(asked.actions.map((a: { title: string }) => a.title)).toEqual(["No, keep reading (switches to code mode)", "Stop"])
    expect((await server.request("agent/getTask", { taskId })).mode).toBe("code")
  })
})

describe("an 'always allow' is kept for what the user saw", () => {
  it("asks again before a subtask in a wider mode after the user allowed subtasks in ask mode always", async () => {
    const ws = await scopedWorkspace()
    const { server } = await startSession(
      [
        { toolCalls: [{ id: "toolu_sub1", name: "new_task", input: { mode: "ask", message: "Read README.md and summarize it." } }] },
        { toolCalls: [{ id: "toolu_c1", name: "attempt_completion", input: { result: "summarized" } }] },
        { toolCalls: [{ id: "toolu_sub2", name: "new_task", input: { mode: "code", message: "Write pwned.txt." } }] },
        { toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "pwned.txt", content: "x\n" } }] },
        complete,
        complete,
      ],
      { workspace: ws.root },
    )
    let answered = 0
    server.handlers.requestApproval = (params: any) => {
      const kind = answered++ === 0 ? "allow_always" : "reject_once"
      return { optionId: params.options.find((o: any) => o.kind === kind)?.optionId }
    }
    expect(await server.request("agent/setPermissionMode", { mode: "acceptEdits" })).toEqual({ mode: "acceptEdits" })
    const { taskId } = await server.request("agent/newTask", { text: "look around", mode: "ask" })
    await server.waitForStatus(taskId, "completed", 30_000)
    const asked = server.serverRequests.filter((r) => r.method === "agent/requestApproval").map((r) => r.params.title)
    expect(asked).toEqual(["Start a subtask in ask mode", "Start a subtask in code mode"])
    expect(existsSync(ws.path("pwned.txt"))).toBe(false)
  })
})
