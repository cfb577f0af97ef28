import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { startAcpClient } from "../support/acp-client"
import { runCliToEnd } from "../support/cli-process"
import type { FakeReply } from "../support/fake-anthropic"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { startSession } from "../support/session"

/** One scripted task: read a file, edit it, create another, complete. */
const script = (): FakeReply[] => [
  { text: "Reading the config.", toolCalls: [{ id: "toolu_read", name: "read_file", input: { path: "config.ini" } }] },
  { toolCalls: [{ id: "toolu_edit", name: "edit", input: { file_path: "config.ini", old_string: "port=80", new_string: "port=8080" } }] },
  { toolCalls: [{ id: "toolu_new", name: "write_to_file", input: { path: "docs/port.md", content: "The port is 8080.\n" } }] },
  { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "Port set to 8080 and documented." } }] },
]
const FILES = { "config.ini": "host=localhost\nport=80\n" }
const TASK = "set the port to 8080 and document it"

async function contents(root: string) {
  return { config: readFileSync(`${root}/config.ini`, "utf8"), doc: readFileSync(`${root}/docs/port.md`, "utf8") }
}

describe("one core, three fronts", () => {
  it("the same scripted task through LSP, ACP and `agent-lsp run` ends with the same files", async () => {
    const [lspWs, acpWs, cliWs] = await Promise.all([scopedWorkspace(FILES), scopedWorkspace(FILES), scopedWorkspace(FILES)])

    const { server } = await startSession(script(), { workspace: lspWs.root })
    const { taskId } = await server.request("agent/newTask", { text: TASK })
    await server.waitForStatus(taskId, "completed", 30_000)

    const acpApi = await scopedFake(script())
    const { client } = await startAcpClient({ apiUrl: acpApi.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: acpWs.root, mcpServers: [] })
    expect((await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: TASK }] })).stopReason).toBe(
      "end_turn",
    )

    const cliApi = await scopedFake(script())
    const cli = await runCliToEnd(["run", "--auto-approve", "write", TASK], { cwd: cliWs.root, apiUrl: cliApi.url })
    expect(cli.code).toBe(0)
    expect(cli.stdout).toBe("Port set to 8080 and documented.\n")

    const expected = { config: "host=localhost\nport=8080\n", doc: "The port is 8080.\n" }
    expect(await contents(lspWs.root)).toEqual(expected)
    expect(await contents(acpWs.root)).toEqual(expected)
    expect(await contents(cliWs.root)).toEqual(expected)
  })
})
