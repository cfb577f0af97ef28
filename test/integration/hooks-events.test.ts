import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import type { FakeReply } from "../support/fake-anthropic"
import { hookGroup, hookHome, RECORDER, recorded } from "../support/hook-scripts"
import { runCliToEnd } from "../support/cli-process"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { startSession } from "../support/session"

/**
 * PreCompact and Notification through the LSP front (the built server over stdio), with real hook scripts in
 * the user's config folder that record the event JSON they read on stdin, run in the OS sandbox.
 */

const done = (result: string): FakeReply => ({ toolCalls: [{ name: "attempt_completion", input: { result } }] })

/** Polls until `check` holds (a Notification hook runs beside the question, not before it). */
async function eventually<T>(read: () => T, check: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = read()
    if (check(value) || Date.now() > until) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A session whose context window (20,000 tokens, condensing at 80%) a 17,000-token turn fills, with these PreCompact hooks. */
function condensingSession(workspace: string, replies: Parameters<typeof startSession>[0], preCompact: unknown[]) {
  return startSession(replies, {
    workspace,
    initializationOptions: {
      agent: { contextWindow: 20_000, context: { condenseAtPercent: 80 }, hooks: { PreCompact: preCompact } },
    },
  })
}

describe("PreCompact hooks", () => {
  it("run with trigger auto before the conversation is condensed, and not while it fits", async () => {
    const ws = await scopedWorkspace({ "big.txt": `${"lorem ipsum dolor sit amet ".repeat(1500)}\n` })
    const home = hookHome({}, { "record.sh": RECORDER })
    const log = ws.path(".precompact.jsonl")
    let loggedAtSummary: unknown[] | undefined
    const { server } = await condensingSession(
      ws.root,
      [
        { toolCalls: [{ id: "toolu_1", name: "read_file", input: { path: "big.txt" } }], usage: { inputTokens: 1000, outputTokens: 20 } },
        { toolCalls: [{ id: "toolu_2", name: "list_files", input: { path: "." } }], usage: { inputTokens: 12_000, outputTokens: 20 } },
        { toolCalls: [{ id: "toolu_3", name: "list_files", input: { path: "." } }], usage: { inputTokens: 17_000, outputTokens: 20 } },
        () => {
          // The summary request: the hook has already run (it is awaited before anything is condensed).
          loggedAtSummary = recorded(log)
          return { text: "Summary: big.txt is lorem ipsum filler." }
        },
        done("condensed"),
      ],
      [hookGroup(`${join(home, "record.sh")} .precompact.jsonl`, "auto")],
    )
    const { taskId } = await server.request("agent/newTask", { text: "look around" })
    await server.waitForStatus(taskId, "completed", 30_000)
    // Three requests fitted (no hook); the fourth was over 80%: one PreCompact run, before the summary request.
    expect(loggedAtSummary).toHaveLength(1)
    const events = recorded(log)
    expect(events).toEqual([
      expect.objectContaining({
        hook_event_name: "PreCompact",
        trigger: "auto",
        custom_instructions: "",
        session_id: taskId,
        cwd: ws.root,
        transcript_path: expect.stringContaining(taskId),
      }),
    ])
  })

  it("do not run when the matcher names the other trigger (manual)", async () => {
    const ws = await scopedWorkspace({ "big.txt": `${"lorem ipsum dolor sit amet ".repeat(1500)}\n` })
    const home = hookHome({}, { "record.sh": RECORDER })
    const { server, api } = await condensingSession(
      ws.root,
      [
        { toolCalls: [{ id: "toolu_1", name: "read_file", input: { path: "big.txt" } }], usage: { inputTokens: 17_000, outputTokens: 20 } },
        { text: "Summary: filler." },
        done("condensed"),
      ],
      [hookGroup(`${join(home, "record.sh")} .manual.jsonl`, "manual")],
    )
    const { taskId } = await server.request("agent/newTask", { text: "look around" })
    await server.waitForStatus(taskId, "completed", 30_000)
    // It did condense (the summary request went out), yet the hook for manual condensing never ran.
    expect(JSON.stringify(api.requests[1]!.body.system)).toContain("summarize")
    expect(existsSync(ws.path(".manual.jsonl"))).toBe(false)
  })
})

describe("Notification hooks", () => {
  it("run when an approval waits, a question waits and the task waits for the user, with Claude Code's message and type", async () => {
    const ws = await scopedWorkspace()
    const home = hookHome({}, { "record.sh": RECORDER })
    const record = (file: string) => join(home, `record.sh ${file}`)
    const { server } = await startSession(
      [
        { toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "a.txt", content: "x\n" } }] },
        {
          toolCalls: [{ id: "toolu_q", name: "ask_followup_question", input: { question: "Which color?", follow_up: [{ text: "blue" }] } }],
        },
        { text: "I will not do that.", stop: "refusal" },
        done("ok"),
      ],
      {
        workspace: ws.root,
        initializationOptions: {
          agent: {
            hooks: {
              Notification: [hookGroup(record(".notify-all.jsonl")), hookGroup(record(".notify-permission.jsonl"), "permission_prompt")],
            },
          },
        },
      },
    )
    const { taskId } = await server.request("agent/newTask", { text: "write a.txt" })
    await server.waitFor(
      () => server.updatesOf(taskId).find((u) => u.kind === "status" && u.status === "waiting" && /declined/.test(u.message ?? "")),
      20_000,
      "the refusal's wait",
    )
    const all = await eventually(
      () => recorded(ws.path(".notify-all.jsonl")),
      (events) => events.length >= 3,
    )
    const byType = Object.fromEntries(all.map((e) => [e.notification_type, e]))
    expect(Object.keys(byType).sort()).toEqual(["elicitation_dialog", "idle_prompt", "permission_prompt"])
    for (const event of all)
      expect(event).toMatchObject({ hook_event_name: "Notification", session_id: taskId, cwd: ws.root, title: "agent-lsp" })
    expect(byType.permission_prompt.message).toMatch(/needs your permission to use write_to_file/)
    expect(byType.elicitation_dialog.message).toContain("Which color?")
    expect(byType.idle_prompt.message).toMatch(/waiting for your input: The model declined/)
    // The matcher is over the notification type: the permission_prompt hook saw that one only.
    expect(recorded(ws.path(".notify-permission.jsonl")).map((e) => e.notification_type)).toEqual(["permission_prompt"])

    await server.request("agent/sendMessage", { taskId, text: "then finish" })
    await server.waitForStatus(taskId, "completed", 20_000)
  })

  it("do not run in agent-lsp run, where nobody is asked (the approval is refused at once)", async () => {
    const ws = await scopedWorkspace()
    const home = hookHome((h: string) => ({ hooks: { Notification: [hookGroup(join(h, "record.sh .notify.jsonl"))] } }), {
      "record.sh": RECORDER,
    })
    const api = await scopedFake([
      { toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "a.txt", content: "x\n" } }] },
      done("ok"),
    ])
    const { code, stderr } = await runCliToEnd(["run", "--permission-mode", "default", "write a.txt"], {
      cwd: ws.root,
      apiUrl: api.url,
      env: { XDG_CONFIG_HOME: home },
    })
    expect(code, stderr).toBe(0)
    // The approval was needed and refused by the policy (no user), the same point where the LSP test's hook ran.
    expect(JSON.stringify(api.requests[1]!.body.messages.at(-1))).toContain("nobody is present to ask")
    expect(existsSync(ws.path(".notify.jsonl"))).toBe(false)
  })
})
