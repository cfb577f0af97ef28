import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import { scopedFake, scopedServer, scopedWorkspace } from "../support/scoped"
import type { FakeAnthropic } from "../support/fake-anthropic"
import type { ServerHarness } from "../support/server-harness"
import type { TempWorkspace } from "../support/temp-workspace"

/**
 * Rejecting a file the task created while the editor has it open, as VS Code's diff editor does (its right
 * side is the file itself): the file is deleted on disk, but the editor's buffer stays open with the
 * agent's text until the tab closes. The review must not list the file again from that buffer, or the
 * client never closes the diff tab (npm run test:vscode's review scenario). Also after a restart.
 */

const NOTES = "# Calc\n\nadd and sub convert their arguments to numbers.\n"
const CALC = "function add(a, b) {\n  return a + b\n}\n"

/** A finished task that changed calc.js and created notes.md, with both listed and notes.md open in the editor. */
async function taskWithOpenCreatedFile(): Promise<{
  server: ServerHarness
  taskId: string
  notes: string
  notesUri: string
  ws: TempWorkspace
  api: FakeAnthropic
}> {
  const ws = await scopedWorkspace({ "calc.js": CALC })
  const api = await scopedFake([
    {
      toolCalls: [
        { id: "t1", name: "write_to_file", input: { path: "calc.js", content: CALC.replace("a + b", "Number(a) + Number(b)") } },
        { id: "t2", name: "write_to_file", input: { path: "notes.md", content: NOTES } },
      ],
    },
    { toolCalls: [{ id: "t3", name: "attempt_completion", input: { result: "done" } }] },
  ])
  const server = await scopedServer({ workspace: ws.root, apiUrl: api.url })
  const { taskId } = await server.request("agent/newTask", { text: "convert, and write a note" })
  await server.waitForStatus(taskId, "completed", 30_000)
  const notes = ws.path("notes.md")
  const notesUri = pathToFileURL(notes).toString()
  await server.waitFor(async () => (await server.request("agent/reviewChanges", { taskId })).files.length === 2, 10_000, "two files")
  // The diff editor opens the file: the editor holds it from here on.
  server.openDocument(notes, NOTES, "markdown")
  const listed = await server.request("agent/reviewChanges", { taskId })
  expect(listed.files.find((f: any) => f.uri === notesUri)).toMatchObject({ status: "created" })
  return { server, taskId, notes, notesUri, ws, api }
}

/** The editor closes the file's tab: didClose (the VS Code client does when the file is no longer listed). */
function closeTab(server: ServerHarness, uri: string): void {
  server.docs.delete(uri)
  server.notifyServer("textDocument/didClose", { textDocument: { uri } })
}

/** The URIs agent/reviewChanges lists now (what the VS Code client lists right after its decision). */
async function listedUris(server: ServerHarness, taskId: string): Promise<string[]> {
  return (await server.request("agent/reviewChanges", { taskId })).files.map((f: any) => f.uri)
}

describe("rejecting a created file the editor has open", () => {
  it("deletes it and no longer lists it, so the client closes its diff tab (Reject file through agent/reviewDecide)", async () => {
    const { server, taskId, notes, notesUri, ws } = await taskWithOpenCreatedFile()
    const updatesBefore = server.updatesOf(taskId).length
    const result = await server.request("agent/reviewDecide", { taskId, decisions: [{ uri: notesUri, action: "reject" }] })
    expect(result).toMatchObject({ kept: 0, rejected: 1, failed: [] })
    expect(existsSync(notes)).toBe(false)
    // The buffer still holds the agent's text (an editor keeps a deleted file's tab): it is not the review's.
    expect(server.docText(notes)).toBe(NOTES)
    const after = await listedUris(server, taskId)
    expect(after).not.toContain(notesUri)
    expect(after).toEqual([pathToFileURL(ws.path("calc.js")).toString()])
    // The review update tells the client one file with one change is left.
    await server.waitFor(
      () =>
        server
          .updatesOf(taskId)
          .slice(updatesBefore)
          .find((u: any) => u.kind === "review" && u.files === 1 && u.hunks === 1),
      10_000,
      "a review update with one file left",
    )

    // The undo (the tab closed by then) brings the file and its review entry back.
    closeTab(server, notesUri)
    const undone = await server.request("workspace/executeCommand", { command: "agent.review.undoReject", arguments: [taskId] })
    expect(undone.failed).toEqual([])
    expect(readFileSync(notes, "utf8")).toBe(NOTES)
    expect(await listedUris(server, taskId)).toContain(notesUri)
  }, 60_000)

  it("deletes it and no longer lists it through the code action's command, and not after a restart either", async () => {
    const { server, taskId, notes, notesUri, ws, api } = await taskWithOpenCreatedFile()
    // The review saved with both files first, so that the reject is recorded on its own beside it.
    const reviews = join(server.stateHome, "state", "agent-lsp", "reviews")
    const holds = (name: string) =>
      existsSync(join(reviews, `${taskId}.json`)) && readFileSync(join(reviews, `${taskId}.json`)).includes(name)
    await server.waitFor(() => holds(notes) && holds(ws.path("calc.js")), 10_000, "the review file with both files")
    await server.request("workspace/executeCommand", { command: "agent.review.reject", arguments: [{ uri: notesUri }, taskId] })
    expect(existsSync(notes)).toBe(false)
    expect(existsSync(join(reviews, `${taskId}.reject`))).toBe(true)
    expect(await listedUris(server, taskId)).not.toContain(notesUri)
    await server.stop()

    // An editor that still holds the deleted file's buffer (a plain tab of it) opens it in the new server.
    const again = await scopedServer({ workspace: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: join(server.stateHome, "state") } })
    again.openDocument(notes, NOTES, "markdown")
    expect(await listedUris(again, taskId)).toEqual([pathToFileURL(ws.path("calc.js")).toString()])
    closeTab(again, notesUri)
    const undone = await again.request("workspace/executeCommand", { command: "agent.review.undoReject", arguments: [taskId] })
    expect(undone.failed).toEqual([])
    expect(readFileSync(notes, "utf8")).toBe(NOTES)
    expect(await listedUris(again, taskId)).toContain(notesUri)
  }, 60_000)
})
