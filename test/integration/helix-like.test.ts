import { readFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { ResponseError } from "vscode-jsonrpc"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { startServer, type ServerHarness } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"

// A client that behaves like Helix 25.07: no experimental agent capabilities, window/showMessageRequest
// answered with MethodNotFound, showDocument and applyEdit supported. It drives a whole task with
// workspace/executeCommand and reads the task through the transcript document the server keeps.

const HELIX_CAPABILITIES = {
  workspace: { applyEdit: true, workspaceEdit: { documentChanges: true, resourceOperations: ["create", "rename", "delete"] }, configuration: true, workspaceFolders: true, executeCommand: {} },
  window: { workDoneProgress: true, showMessage: { messageActionItem: { additionalPropertiesSupport: false } }, showDocument: { support: true } },
  textDocument: { synchronization: { didSave: true }, codeAction: {} },
}

const diff = ["<<<<<<< SEARCH", ":start_line:1", "-------", "hello", "=======", "hello there", ">>>>>>> REPLACE"].join("\n")

let ws: TempWorkspace
let fake: FakeAnthropic
let server: ServerHarness

beforeEach(async () => {
  ws = await tempWorkspace({ "a.txt": "hello\nworld\n" })
  fake = await startFakeAnthropic([
    { text: "Reading a.txt.", toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] },
    { toolCalls: [{ name: "apply_diff", input: { path: "a.txt", diff } }] },
    { toolCalls: [{ name: "attempt_completion", input: { result: "Greeting changed." } }] },
  ])
  server = await startServer({ workspace: ws.root, apiUrl: fake.url, capabilities: HELIX_CAPABILITIES })
  server.handlers.showMessageRequest = () => {
    throw new ResponseError(-32601, "Method not found: window/showMessageRequest")
  }
  // Helix opens a shown document into a buffer (didOpen); later applyEdits change that buffer.
  server.handlers.showDocument = (params: { uri: string }) => {
    if (!server.docs.has(params.uri)) server.openDocument(fileURLToPath(params.uri), readFileSync(fileURLToPath(params.uri), "utf8"), "markdown")
    return { success: true }
  }
})
afterEach(async () => {
  await server?.stop()
  await fake.close()
  await ws.cleanup()
})

describe("a Helix 25.07-like client (no agent extensions, showMessageRequest unsupported)", () => {
  it("runs a task approved with agent.respond and follows it in the transcript document", async () => {
    server.openDocument(ws.path("a.txt"))
    const { taskId } = await server.request("workspace/executeCommand", { command: "agent.newTask", arguments: ["change hello to hello there"] })
    expect(taskId).toBeTruthy()

    // The transcript is shown without taking focus when the task starts.
    const shown = await server.waitFor(() => server.serverRequests.find((r) => r.method === "window/showDocument")?.params, 15_000, "window/showDocument")
    expect(shown.takeFocus).toBe(false)
    const transcriptPath = fileURLToPath(shown.uri)
    expect(transcriptPath.startsWith(server.stateHome)).toBe(true)
    expect(transcriptPath.endsWith(".md")).toBe(true)

    // The approval is announced with its requestId (showMessageRequest failed); answer it like a Helix user.
    const announce = await server.waitFor(
      () => server.notifications.find((n) => n.method === "window/showMessage" && /agent\.respond "([^"]+)"/.test(n.params.message))?.params.message as string | undefined,
      20_000,
      "the approval announcement",
    )
    const requestId = /agent\.respond "([^"]+)"/.exec(announce)![1]
    await server.waitFor(() => server.docText(transcriptPath)?.includes(requestId), 10_000, "the pending approval in the transcript")
    await server.request("workspace/executeCommand", { command: "agent.respond", arguments: [requestId, "allow_once"] })

    const transcript = await server.waitFor(() => {
      const text = server.docText(transcriptPath)
      return text?.includes("Greeting changed.") ? text : undefined
    }, 20_000, "the completed transcript")

    expect(transcript).toContain("# change hello to hello there")
    expect(transcript).toContain("Reading a.txt.")
    expect(transcript).toMatch(/\*\*read_file\*\* `a\.txt`/)
    expect(transcript).toMatch(/\*\*apply_diff\*\* `a\.txt` — awaiting approval/)
    expect(transcript).toContain(`### Approval needed (\`${requestId}\`)`)
    expect(transcript).toContain(`:lsp-workspace-command agent.respond "${requestId}" "allow_once"`)
    expect(transcript).toContain("## Completed")
    // The editor's copy (built from showDocument + applyEdits) and the file on disk agree.
    await server.waitFor(() => readFileSync(transcriptPath, "utf8") === server.docText(transcriptPath), 5_000, "the transcript on disk")

    // The edit reached the buffer and, with no agent/saveDocuments, the server wrote the disk itself.
    expect(server.docText(ws.path("a.txt"))).toBe("hello there\nworld\n")
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("hello there\nworld\n")
    // No agent/* request or notification ever reached this client.
    expect(server.serverRequests.filter((r) => r.method.startsWith("agent/"))).toEqual([])
    expect(server.updates).toEqual([])

    // agent.showTranscript shows it again, this time taking focus.
    await server.request("workspace/executeCommand", { command: "agent.showTranscript", arguments: [taskId] })
    const again = server.serverRequests.filter((r) => r.method === "window/showDocument").at(-1)!.params
    expect(again).toEqual({ uri: shown.uri, takeFocus: true })
  }, 60_000)
})
