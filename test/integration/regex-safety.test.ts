import { describe, expect, it, onTestFinished } from "vitest"
import { startSession, toolResultIn } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * Issue 11: regular expressions from the model (read_command_output search) and from the workspace (.roomodes
 * fileRegex) run on RE2, so a catastrophic pattern cannot freeze the server. A backtracking engine takes
 * hours on `^(a+)+$` against forty a's and a "!"; the server must keep answering agent/listModes meanwhile.
 */
const EVIL = "^(a+)+$"
const VICTIM = `${"a".repeat(40)}!`

const text = (result: any) =>
  typeof result?.content === "string" ? result.content : (result?.content ?? []).map((c: any) => c.text).join("\n")

describe("regular expressions cannot freeze the server", () => {
  it("a ReDoS search pattern and a ReDoS fileRegex run while agent/listModes keeps answering", async () => {
    const ws = await tempWorkspace({
      ".roomodes": `customModes:\n  - { slug: redos, name: ReDoS, roleDefinition: r, groups: [read, command, [edit, { fileRegex: "${EVIL}" }]] }\n`,
    })
    onTestFinished(() => ws.cleanup())
    const { server, api } = await startSession(
      [
        {
          toolCalls: [
            { id: "toolu_print", name: "execute_command", input: { command: `for i in 1 2 3 4 5 6 7 8 9 10; do echo ${VICTIM}; done` } },
          ],
        },
        (request) => {
          const id = /artifact_id \\?"(cmd-[^"\\]+)/.exec(JSON.stringify(toolResultIn(request, "toolu_print")))?.[1] ?? "missing"
          return { toolCalls: [{ id: "toolu_search", name: "read_command_output", input: { artifact_id: id, search: EVIL } }] }
        },
        { toolCalls: [{ id: "toolu_write", name: "write_to_file", input: { path: VICTIM, content: "x\n" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
      ],
      {
        workspace: ws.root,
        initializationOptions: { agent: { terminal: { allow: ["echo"], outputLines: 4 }, autoApprove: { write: true } } },
      },
    )
    server.handlers.requestApproval = (params: any) => ({ optionId: params.options.find((o: any) => o.kind === "allow_once").optionId })
    const { taskId } = await server.request("agent/newTask", { text: "Search", mode: "redos" })
    const done = server.waitForStatus(taskId, "completed", 60_000)
    let finished = false
    void done.then(() => (finished = true))
    const answers: number[] = []
    while (!finished) {
      const started = Date.now()
      const { modes } = await server.request("agent/listModes", {})
      expect(modes.map((m: any) => m.slug)).toContain("redos")
      answers.push(Date.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await done
    // A generous bound: it only proves the event loop was never stuck in a regex.
    expect(Math.max(...answers)).toBeLessThan(10_000)
    expect(text(toolResultIn(api.requests[2], "toolu_search"))).toMatch(/^No lines match \/\^\(a\+\)\+\$\/ in cmd-/)
    expect(text(toolResultIn(api.requests[3], "toolu_write"))).toMatch(/can only edit files matching pattern: \^\(a\+\)\+\$/)
  }, 90_000)
})
