import { beforeAll, describe, expect, it } from "vitest"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"
import { newTurnState } from "../../../server/src/pipeline/types"
import type { ApprovalAnswer } from "../../../server/src/tools/context"
import { z } from "zod"
import { defineTool, textResult } from "../../../server/src/tools/tool"
import { harness, runs, text } from "./fixtures"

function answer(optionId: string, extra: Partial<Extract<ApprovalAnswer, { decision: "answered" }>> = {}) {
  return (request: { options: { optionId: string; kind: any }[] }): ApprovalAnswer => {
    const option = request.options.find((o) => o.optionId === optionId)!
    return { decision: "answered", optionId, kind: option.kind, ...extra }
  }
}

const write = { path: "src/a.ts", content: "new" }

// execute_command loads the shell grammar in its prepare step; these fake command tools rely on it loaded.
beforeAll(async () => {
  await loadShellParser()
})

describe("approvals in the pipeline", () => {
  it("asks before a write with the preview and the four options, and shows awaitingApproval", async () => {
    const h = harness()
    const out = await h.pipeline.run(h.call("write_to_file", write, "c1"), newTurnState(), h.ctx)
    expect(out.status).toBe("done")
    expect(h.ctx.ask.approvals).toEqual([
      {
        taskId: "t1",
        callId: "c1",
        tool: "write_to_file",
        title: "write_to_file",
        detail: JSON.stringify(write),
        diff: "--- a\n+++ b",
        command: undefined,
        proposedText: undefined,
        options: [
          { optionId: "allow_once", label: "Allow once", kind: "allow_once" },
          { optionId: "allow_always", label: "Always allow write_to_file in this task", kind: "allow_always" },
          { optionId: "reject", label: "Reject", kind: "reject_once" },
          { optionId: "reject_feedback", label: "Reject with feedback…", kind: "reject_once" },
        ],
      },
    ])
    expect(h.ctx.updates.filter((u) => u.kind === "toolCall").map((u) => (u as { status: string }).status)).toEqual([
      "awaitingApproval",
      "running",
      "done",
    ])
  })

  it("writes without asking when agent.autoApprove.write is on", async () => {
    const h = harness({ tweak: (s) => (s.autoApprove.write = true) })
    await h.pipeline.run(h.call("write_to_file", write), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals).toHaveLength(0)
  })

  it("always asks before writing a protected file, even with autoApprove.write", async () => {
    const h = harness({ tweak: (s) => (s.autoApprove.write = true) })
    for (const path of [
      ".roomodes",
      ".roo/rules/a.md",
      "AGENTS.md",
      ".vscode/settings.json",
      ".git/config",
      "/home/user/.config/agent-lsp/settings.json",
    ]) {
      await h.pipeline.run(h.call("write_to_file", { path, content: "x" }), newTurnState(), h.ctx)
    }
    expect(h.ctx.ask.approvals).toHaveLength(6)
  })

  it("remembers allow always for the tool for the rest of the task", async () => {
    const h = harness()
    h.ctx.ask.approvalAnswer = answer("allow_always")
    await h.pipeline.run(h.call("write_to_file", write), newTurnState(), h.ctx)
    await h.pipeline.run(h.call("write_to_file", { path: "src/b.ts", content: "x" }), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals).toHaveLength(1)
  })

  it("remembers allow always for a command as its prefix, not for every command", async () => {
    const h = harness()
    h.ctx.ask.approvalAnswer = answer("allow_always")
    await h.pipeline.run(h.call("execute_command", { command: "npm test -- --watch=false" }), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals[0]!.options[1]!.label).toBe('Always allow "npm test" in this task')
    await h.pipeline.run(h.call("execute_command", { command: "npm test" }), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals).toHaveLength(1)
    await h.pipeline.run(h.call("execute_command", { command: "npm publish" }), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals).toHaveLength(2)
  })

  it("turns a rejection into a denied JSON result and skips the rest of the turn", async () => {
    const h = harness()
    h.ctx.ask.rejectAll()
    const turn = newTurnState()
    const before = runs.length
    const out = await h.pipeline.run(h.call("write_to_file", write), turn, h.ctx)
    expect(out.status).toBe("denied")
    expect(JSON.parse(text(out.result))).toEqual({ status: "denied", tool: "write_to_file", message: "The user rejected this tool call." })
    expect(turn.rejected).toBe(true)
    const next = await h.pipeline.run(h.call("read_file", { path: "a.ts" }), turn, h.ctx)
    expect(next.status).toBe("skipped")
    expect(text(next.result)).toBe("Skipping read_file because the user rejected a previous tool.")
    expect(runs.length).toBe(before)
  })

  it("passes the user's feedback with a rejection", async () => {
    const h = harness()
    h.ctx.ask.approvalAnswer = answer("reject_feedback", { feedback: "use a.md instead" })
    const out = await h.pipeline.run(h.call("write_to_file", write), newTurnState(), h.ctx)
    expect(JSON.parse(text(out.result))).toEqual({
      status: "denied",
      tool: "write_to_file",
      message: "The user rejected this tool call.",
      feedback: "use a.md instead",
    })
  })

  it("prefixes the result with feedback given with an approval", async () => {
    const h = harness()
    h.ctx.ask.approvalAnswer = answer("allow_once", { feedback: "fine, but add tests next" })
    const out = await h.pipeline.run(h.call("write_to_file", write), newTurnState(), h.ctx)
    expect(out.result.content[0]).toEqual({ type: "text", text: "The user approved this call with feedback: fine, but add tests next" })
    expect(out.result.content).toHaveLength(2)
  })

  it("hands the user's edited text to run()", async () => {
    const h = harness()
    h.ctx.ask.approvalAnswer = answer("allow_once", { editedText: "edited by user" })
    await h.pipeline.run(h.call("write_to_file", write), newTurnState(), h.ctx)
    expect(runs.at(-1)).toEqual({ tool: "write_to_file", params: write, editedText: "edited by user" })
  })

  it.each(["dismissed", "timeout", "cancelled", "unavailable", "error"] as const)(
    "fails closed when there is no answer (%s)",
    async (reason) => {
      const h = harness()
      h.ctx.ask.approvalAnswer = () => ({ decision: "noAnswer", reason })
      const turn = newTurnState()
      const before = runs.length
      const out = await h.pipeline.run(h.call("write_to_file", write), turn, h.ctx)
      expect(out.status).toBe("denied")
      expect(JSON.parse(text(out.result)).status).toBe("denied")
      expect(runs.length).toBe(before)
      expect(turn.rejected).toBe(true)
    },
  )

  it("fails closed when the ask port throws or answers with an option it was not offered", async () => {
    const h = harness()
    h.ctx.ask.approvalAnswer = () => {
      throw new Error("connection lost")
    }
    expect((await h.pipeline.run(h.call("write_to_file", write), newTurnState(), h.ctx)).status).toBe("denied")
    h.ctx.ask.approvalAnswer = () => ({ decision: "answered", optionId: "yolo", kind: "allow_once" })
    const out = await h.pipeline.run(h.call("write_to_file", write), newTurnState(), h.ctx)
    expect(out.status).toBe("denied")
    expect(JSON.parse(text(out.result)).message).toBe(
      'The user\'s answer "yolo" is not one of the options offered, so the call was not run.',
    )
  })

  it("refuses a denied command without asking, and does not skip the rest of the turn", async () => {
    const h = harness({ tweak: (s) => ((s.terminal.allow = ["git"]), (s.terminal.deny = ["git push"])) })
    const turn = newTurnState()
    const out = await h.pipeline.run(h.call("execute_command", { command: "git status && git push --force" }), turn, h.ctx)
    expect(out.status).toBe("denied")
    expect(JSON.parse(text(out.result)).message).toMatch(
      /^The command was refused without running: "git push --force" matches the denied command prefix "git push"/,
    )
    expect(h.ctx.ask.approvals).toHaveLength(0)
    expect(turn.rejected).toBe(false)
  })

  it("asks when one part of a command matches no prefix, and runs an all-allowed command without asking", async () => {
    const h = harness({ tweak: (s) => (s.terminal.allow = ["npm test", "git status"]) })
    const out = await h.pipeline.run(h.call("execute_command", { command: "git status && npm test 2>&1 | tail" }), newTurnState(), h.ctx)
    // "tail" matches no prefix: the whole line asks.
    expect(h.ctx.ask.approvals).toHaveLength(1)
    expect(out.status).toBe("done")
    await h.pipeline.run(h.call("execute_command", { command: "git status && npm test" }), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals).toHaveLength(1)
  })

  it("asks before a read when agent.autoApprove.read is off", async () => {
    const h = harness({ tweak: (s) => (s.autoApprove.read = false) })
    await h.pipeline.run(h.call("read_file", { path: "a.ts" }), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals).toHaveLength(1)
  })

  it("remembers reject always for the tool: later calls are denied without asking", async () => {
    const h = harness()
    // No built-in option is reject_always; a client may still answer with one it was offered.
    h.ctx.ask.approvalAnswer = (request) => {
      request.options.push({ optionId: "never", label: "Never", kind: "reject_always" })
      return { decision: "answered", optionId: "never", kind: "reject_always" }
    }
    await h.pipeline.run(h.call("write_to_file", write), newTurnState(), h.ctx)
    const out = await h.pipeline.run(h.call("write_to_file", write), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals).toHaveLength(1)
    expect(JSON.parse(text(out.result)).message).toBe("The user chose to always reject write_to_file in this task.")
  })

  it("asks about a dangerous expansion even when every prefix is allowed, without an allow-always option", async () => {
    const h = harness({ tweak: (s) => (s.terminal.allow = ["echo"]) })
    await h.pipeline.run(h.call("execute_command", { command: 'echo "${PS1@P}"' }), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals).toHaveLength(1)
    expect(h.ctx.ask.approvals[0]!.options.map((o) => o.kind)).toEqual(["allow_once", "reject_once", "reject_once"])
    expect(h.ctx.ask.approvals[0]!.command).toBe('echo "${PS1@P}"')
  })

  it("holds back a read tool's answer from prepare() until the user allows it when reads are not auto-approved", async () => {
    const reader = defineTool({
      name: "list_files",
      group: "read",
      params: z.object({ path: z.string() }),
      description: "",
      available: () => true,
      prepare: async () => ({ result: textResult("secret.txt") }),
    })
    const h = harness({ tools: [reader], tweak: (s) => (s.autoApprove.read = false) })
    h.ctx.ask.rejectAll()
    const out = await h.pipeline.run(h.call("list_files", { path: "." }), newTurnState(), h.ctx)
    expect(h.ctx.ask.approvals[0]).toMatchObject({ tool: "list_files", title: "list_files .", detail: "Read ." })
    expect(out.status).toBe("denied")
    expect(text(out.result)).not.toContain("secret.txt")
  })
})
