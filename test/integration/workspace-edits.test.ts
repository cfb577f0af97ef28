import { chmodSync, existsSync, readFileSync, statSync } from "node:fs"
import { pathToFileURL } from "node:url"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from "../support/fake-anthropic"
import { RICH_CAPABILITIES, startServer, type ServerHarness, type StartOptions } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"

/**
 * Edits through the built server, with the harness as the editor: the buffer changes through a versioned
 * workspace/applyEdit, the disk follows only once the editor's didChange confirms it, and never behind the
 * user's own unsaved changes. Each test checks what the editor saw and what the model got as tool_result.
 */

let server: ServerHarness | undefined
let api: FakeAnthropic | undefined
let ws: TempWorkspace | undefined
afterEach(async () => {
  await server?.stop()
  await api?.close()
  await ws?.cleanup()
  server = api = ws = undefined
})

const ORIGINAL = "export function greet(name: string) {\n  return 'hello ' + name\n}\n\nexport const answer = 41\n"
const EDITED = "export function greet(name: string) {\n  return 'hello ' + name\n}\n\nexport const answer = 42\n"
const DIFF = "<<<<<<< SEARCH\n:start_line:5\n-------\nexport const answer = 41\n=======\nexport const answer = 42\n>>>>>>> REPLACE"

/** A rich client (every agent extension) that does not handle agent/saveDocuments. */
const NO_SAVE_CAPABILITIES = {
  ...RICH_CAPABILITIES,
  experimental: { agent: { ...RICH_CAPABILITIES.experimental.agent, saveDocuments: false } },
}

/** Starts a workspace with src/app.ts, a model that sends `call` then completes, and the server (not yet given the task). */
async function setup(call: { name: string; input: unknown }, options: Partial<StartOptions> = {}) {
  ws = await tempWorkspace({ "src/app.ts": ORIGINAL })
  api = await startFakeAnthropic([
    { toolCalls: [{ id: "toolu_edit", ...call }] },
    { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
  ])
  server = await startServer({ workspace: ws.root, apiUrl: api.url, ...options })
  return { ws, api, server }
}

async function runTask(text = "change the answer"): Promise<string> {
  const { taskId } = await server!.request("agent/newTask", { text })
  await server!.waitForStatus(taskId, "completed")
  return taskId
}

function toolResultOf(request: RecordedRequest | undefined, id: string): any {
  return request?.body.messages.at(-1).content.find((b: any) => b.type === "tool_result" && b.tool_use_id === id)
}

function resultText(result: any): string {
  return typeof result.content === "string" ? result.content : result.content.map((b: any) => b.text ?? "").join("\n")
}

function applyEdits(): any[] {
  return server!.serverRequests.filter((r) => r.method === "workspace/applyEdit").map((r) => r.params)
}

/** The user types in the editor: the harness's buffer changes and a full-text didChange goes to the server. */
function userTypes(path: string, text: string): void {
  const uri = pathToFileURL(path).toString()
  const doc = server!.docs.get(uri)!
  const next = TextDocument.create(uri, doc.languageId, doc.version + 1, text)
  server!.docs.set(uri, next)
  server!.notifyServer("textDocument/didChange", { textDocument: { uri, version: next.version }, contentChanges: [{ text }] })
}

describe("apply_diff on a document open in the editor", () => {
  it("changes the buffer through a versioned TextDocumentEdit, then the editor saves it through agent/saveDocuments", async () => {
    const { ws } = await setup({ name: "apply_diff", input: { path: "src/app.ts", diff: DIFF } })
    const file = ws.path("src/app.ts")
    server!.openDocument(file, undefined, "typescript")
    const taskId = await runTask()

    const [edit] = applyEdits()
    const change = edit.edit.documentChanges[0]
    expect(change.textDocument).toEqual({ uri: pathToFileURL(file).toString(), version: 1 })
    expect(change.edits.map((e: any) => e.newText).join("")).toContain("2")
    expect(server!.docText(file)).toBe(EDITED)
    const save = server!.serverRequests.find((r) => r.method === "agent/saveDocuments")
    expect(save?.params.uris).toEqual([pathToFileURL(file).toString()])
    expect(readFileSync(file, "utf8")).toBe(EDITED)
    expect(server!.updatesOf(taskId)).toContainEqual(
      expect.objectContaining({ kind: "toolResult", callId: "toolu_edit", tool: "apply_diff", isError: false }),
    )

    const result = toolResultOf(api!.requests[1], "toolu_edit")
    expect(result.is_error ?? false).toBe(false)
    expect(resultText(result)).toContain("Modified src/app.ts (+1 -1 lines)")
    expect(resultText(result)).toContain("the editor saved it to disk")
  })

  it("writes the disk atomically, keeping the mode bits, when the client did not declare agent/saveDocuments", async () => {
    const { ws } = await setup({ name: "apply_diff", input: { path: "src/app.ts", diff: DIFF } }, { capabilities: NO_SAVE_CAPABILITIES })
    const file = ws.path("src/app.ts")
    chmodSync(file, 0o754)
    const inodeBefore = statSync(file).ino
    server!.openDocument(file, undefined, "typescript")
    await runTask()

    expect(applyEdits()[0].edit.documentChanges[0].textDocument.version).toBe(1)
    expect(server!.docText(file)).toBe(EDITED)
    expect(server!.serverRequests.some((r) => r.method === "agent/saveDocuments")).toBe(false)
    expect(readFileSync(file, "utf8")).toBe(EDITED)
    // temp file + rename: a new inode with the old permissions.
    expect(statSync(file).ino).not.toBe(inodeBefore)
    expect(statSync(file).mode & 0o777).toBe(0o754)

    const result = toolResultOf(api!.requests[1], "toolu_edit")
    expect(result.is_error ?? false).toBe(false)
    expect(resultText(result)).toContain("Modified src/app.ts")
    expect(resultText(result)).toContain("the file on disk holds the same content")
  })

  it("leaves buffer and disk untouched and reports an error when the editor refuses the edit", async () => {
    const { ws } = await setup({ name: "apply_diff", input: { path: "src/app.ts", diff: DIFF } })
    const file = ws.path("src/app.ts")
    server!.openDocument(file, undefined, "typescript")
    server!.handlers.applyEdit = () => ({ applied: false, failureReason: "buffer is read-only" })
    const taskId = await runTask()

    expect(applyEdits()).toHaveLength(1)
    expect(server!.docText(file)).toBe(ORIGINAL)
    expect(readFileSync(file, "utf8")).toBe(ORIGINAL)
    expect(server!.serverRequests.some((r) => r.method === "agent/saveDocuments")).toBe(false)
    expect(server!.updatesOf(taskId)).toContainEqual(expect.objectContaining({ kind: "toolResult", callId: "toolu_edit", isError: true }))

    const result = toolResultOf(api!.requests[1], "toolu_edit")
    expect(result.is_error).toBe(true)
    expect(resultText(result)).toContain("refused the edit (buffer is read-only)")
    expect(resultText(result)).toContain("the file on disk is unchanged")
  })

  it("does not trust applied:true without the didChange that shows the edit: error, disk untouched", async () => {
    const { ws } = await setup({ name: "apply_diff", input: { path: "src/app.ts", diff: DIFF } })
    const file = ws.path("src/app.ts")
    server!.openDocument(file, undefined, "typescript")
    // Like Neovim 0.7 skipping a stale edit: claims success, changes nothing, sends no didChange.
    server!.handlers.applyEdit = () => ({ applied: true })
    await runTask()

    expect(applyEdits()).toHaveLength(1)
    expect(server!.docText(file)).toBe(ORIGINAL)
    expect(readFileSync(file, "utf8")).toBe(ORIGINAL)
    expect(server!.serverRequests.some((r) => r.method === "agent/saveDocuments")).toBe(false)

    const result = toolResultOf(api!.requests[1], "toolu_edit")
    expect(result.is_error).toBe(true)
    expect(resultText(result)).toContain("did not change to the intended text")
    expect(resultText(result)).toContain("the file on disk is unchanged")
  })

  it("never saves the user's own unsaved buffer changes behind them: asks, and on 'Don't save' the disk stays as it was", async () => {
    const { ws } = await setup({ name: "apply_diff", input: { path: "src/app.ts", diff: DIFF } })
    const file = ws.path("src/app.ts")
    server!.openDocument(file, undefined, "typescript")
    const userText = `// my unsaved note\n${ORIGINAL}`
    userTypes(file, userText)
    server!.handlers.askFollowup = () => ({ answer: "Don't save" })
    await runTask()

    // The edit reached the buffer (versioned against the user's text), on top of the user's change.
    expect(applyEdits()[0].edit.documentChanges[0].textDocument.version).toBe(2)
    expect(server!.docText(file)).toBe(`// my unsaved note\n${EDITED}`)
    const question = server!.serverRequests.find((r) => r.method === "agent/askFollowup")
    expect(question?.params.question).toContain("unsaved changes")
    expect(server!.serverRequests.some((r) => r.method === "agent/saveDocuments")).toBe(false)
    expect(readFileSync(file, "utf8")).toBe(ORIGINAL)

    const result = toolResultOf(api!.requests[1], "toolu_edit")
    expect(result.is_error ?? false).toBe(false)
    expect(resultText(result)).toContain("the file on disk is stale")
  })

  it("refuses to apply when the user changes the buffer while the edit waits for approval, and writes nothing", async () => {
    const { ws } = await setup({ name: "apply_diff", input: { path: "src/app.ts", diff: DIFF } })
    const file = ws.path("src/app.ts")
    server!.openDocument(file, undefined, "typescript")
    const userText = ORIGINAL.replace("'hello '", "'hi '")
    // The didChange goes out before the approval answer on the same ordered stream, so the server sees it first.
    server!.handlers.requestApproval = (params) => {
      userTypes(file, userText)
      return { optionId: params.options.find((o: any) => o.kind === "allow_once").optionId }
    }
    await runTask()

    expect(applyEdits()).toHaveLength(0)
    expect(server!.docText(file)).toBe(userText)
    expect(readFileSync(file, "utf8")).toBe(ORIGINAL)

    const result = toolResultOf(api!.requests[1], "toolu_edit")
    expect(result.is_error).toBe(true)
    expect(resultText(result)).toContain("changed after this edit was prepared")
    expect(resultText(result)).toContain("nothing was written")
  })
})

describe("write_to_file", () => {
  it("creates a new file and its parent folders, shows the diff for approval, and tells the model it was created", async () => {
    const { ws } = await setup({
      name: "write_to_file",
      input: { path: "src/new/dir/util.ts", content: "export const one = 1\nexport const two = 2\n" },
    })
    await runTask("add a util module")

    const ask = server!.serverRequests.find((r) => r.method === "agent/requestApproval")!.params
    expect(ask).toMatchObject({ callId: "toolu_edit", tool: "write_to_file" })
    expect(ask.diff).toContain("+export const one = 1")
    expect(readFileSync(ws.path("src/new/dir/util.ts"), "utf8")).toBe("export const one = 1\nexport const two = 2\n")
    expect(readFileSync(ws.path("src/app.ts"), "utf8")).toBe(ORIGINAL)

    const result = toolResultOf(api!.requests[1], "toolu_edit")
    expect(result.is_error ?? false).toBe(false)
    expect(resultText(result)).toContain("Created src/new/dir/util.ts (+2 -0 lines)")
  })

  it("does not create the file when the editor rejects the approval", async () => {
    const { ws } = await setup({ name: "write_to_file", input: { path: "notes.md", content: "x\n" } })
    server!.handlers.requestApproval = (params) => ({ optionId: params.options.find((o: any) => o.kind === "reject_once").optionId })
    await runTask()
    expect(existsSync(ws.path("notes.md"))).toBe(false)
    expect(toolResultOf(api!.requests[1], "toolu_edit").is_error).toBe(true)
  })
})
