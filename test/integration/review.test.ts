import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { TextDocument } from "vscode-languageserver-textdocument"
import { describe, expect, it } from "vitest"
import { scopedFake, scopedServer, scopedWorkspace } from "../support/scoped"
import type { ServerHarness } from "../support/server-harness"

/**
 * The review of a task's changes through the built server, the harness as the editor: hunks listed with
 * agent/reviewChanges, decided with agent/reviewDecide and the agent.review.* commands, written back
 * through workspace/applyEdit or the disk, and surviving a restart.
 */

const lines = (n: number, tag = "") => Array.from({ length: n }, (_, i) => `line ${i + 1}${tag}\n`).join("")
const ORIGINAL = lines(12)
/** Lines 2 and 10 changed: two hunks far apart. */
const EDITED = ORIGINAL.replace("line 2\n", "line 2 by agent\n").replace("line 10\n", "line 10 by agent\n")

async function runTask(server: ServerHarness, text = "edit the files"): Promise<string> {
  const { taskId } = await server.request("agent/newTask", { text })
  await server.waitForStatus(taskId, "completed", 30_000)
  return taskId
}

/** The review once it holds `files` files (the review settles shortly after the task's last event). */
async function reviewWith(server: ServerHarness, taskId: string, files: number): Promise<any> {
  let last: any
  for (let i = 0; i < 100; i++) {
    last = await server.request("agent/reviewChanges", { taskId })
    if (last.files.length === files) return last
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`review never had ${files} files: ${JSON.stringify(last)}`)
}

const fileOf = (review: any, path: string) => review.files.find((f: any) => f.uri === pathToFileURL(path).toString())

/** The user types in the editor: the harness's buffer changes and a full-text didChange goes to the server. */
function userTypes(server: ServerHarness, path: string, text: string): void {
  const uri = pathToFileURL(path).toString()
  const doc = server.docs.get(uri)!
  const next = TextDocument.create(uri, doc.languageId, doc.version + 1, text)
  server.docs.set(uri, next)
  server.notifyServer("textDocument/didChange", { textDocument: { uri, version: next.version }, contentChanges: [{ text }] })
}

describe("reviewing a task's changes", () => {
  it("keeps one hunk and rejects the other, deletes a rejected new file, undoes that, and lists a command's change", async () => {
    const ws = await scopedWorkspace({ "src/app.txt": ORIGINAL, "data.txt": "one\n" })
    const api = await scopedFake([
      {
        toolCalls: [
          { id: "t1", name: "write_to_file", input: { path: "src/app.txt", content: EDITED } },
          { id: "t2", name: "write_to_file", input: { path: "src/new.txt", content: "brand new\n" } },
          { id: "t3", name: "execute_command", input: { command: "printf 'two\\n' >> data.txt" } },
        ],
      },
      { toolCalls: [{ id: "t4", name: "attempt_completion", input: { result: "done" } }] },
    ])
    const server = await scopedServer({ workspace: ws.root, apiUrl: api.url })
    const taskId = await runTask(server)
    const app = ws.path("src/app.txt")
    const created = ws.path("src/new.txt")
    const data = ws.path("data.txt")
    expect(readFileSync(data, "utf8")).toBe("one\ntwo\n")

    const review = await reviewWith(server, taskId, 3)
    const appFile = fileOf(review, app)
    expect(appFile).toMatchObject({ status: "modified", byCommand: false })
    expect(appFile.hunks.map((h: any) => [h.oldText, h.newText])).toEqual([
      ["line 2\n", "line 2 by agent\n"],
      ["line 10\n", "line 10 by agent\n"],
    ])
    expect(appFile.hunks[1].range.start.line).toBe(9)
    expect(fileOf(review, created)).toMatchObject({ status: "created", byCommand: false })
    expect(fileOf(review, data)).toMatchObject({ status: "modified", byCommand: true, hunks: [{ oldText: "", newText: "two\n" }] })

    // The editor was told: a taskUpdate `review` and Hint diagnostics with the review's source.
    await server.waitFor(() => server.updatesOf(taskId).find((u) => u.kind === "review" && u.hunks === 4))
    const published = await server.waitFor(() =>
      server.notifications.find(
        (n) =>
          n.method === "textDocument/publishDiagnostics" &&
          n.params.uri === pathToFileURL(app).toString() &&
          n.params.diagnostics.length === 2,
      ),
    )
    expect(published.params.diagnostics[0]).toMatchObject({ severity: 4, source: "agent-lsp review" })
    expect(published.params.diagnostics[0].message).toContain(taskId)
    const actions = await server.request("textDocument/codeAction", {
      textDocument: { uri: pathToFileURL(app).toString() },
      range: { start: { line: 9, character: 0 }, end: { line: 9, character: 0 } },
      context: { diagnostics: [] },
    })
    expect(actions.map((a: any) => a.title)).toEqual(["Keep this change", "Reject this change", "Keep file", "Reject file"])
    expect(actions[1].command.arguments[0]).toEqual({ hunkId: appFile.hunks[1].hunkId })

    const first = await server.request("agent/reviewDecide", {
      taskId,
      decisions: [
        { hunkId: appFile.hunks[0].hunkId, action: "keep" },
        { hunkId: appFile.hunks[1].hunkId, action: "reject" },
      ],
    })
    expect(first).toMatchObject({ kept: 1, rejected: 1, failed: [] })
    expect(readFileSync(app, "utf8")).toBe(ORIGINAL.replace("line 2\n", "line 2 by agent\n"))

    // The code action's command rejects the new file: nobody edited it, so it is deleted.
    await server.request("workspace/executeCommand", {
      command: "agent.review.reject",
      arguments: [{ uri: pathToFileURL(created).toString() }, taskId],
    })
    expect(existsSync(created)).toBe(false)
    await server.request("workspace/executeCommand", { command: "agent.review.undoReject", arguments: [taskId] })
    expect(readFileSync(created, "utf8")).toBe("brand new\n")

    const after = await reviewWith(server, taskId, 2)
    expect(after.files.map((f: any) => f.uri).sort()).toEqual([pathToFileURL(data).toString(), pathToFileURL(created).toString()].sort())

    // The task's diff as a document.
    const opened = await server.request("workspace/executeCommand", { command: "agent.review.open", arguments: [taskId] })
    expect(readFileSync(opened.path, "utf8")).toContain("+two")
    expect(server.serverRequests.some((r) => r.method === "window/showDocument" && r.params.uri === opened.uri)).toBe(true)

    // Reject everything, then undo: every file is back, and so is its review entry, as it was.
    await server.request("workspace/executeCommand", { command: "agent.review.rejectAll", arguments: [taskId] })
    expect(readFileSync(data, "utf8")).toBe("one\n")
    expect((await server.request("agent/reviewChanges", { taskId })).files).toEqual([])
    await server.request("workspace/executeCommand", { command: "agent.review.undoReject", arguments: [taskId] })
    expect(readFileSync(data, "utf8")).toBe("one\ntwo\n")
    const undone = await server.request("agent/reviewChanges", { taskId })
    expect(fileOf(undone, data)).toMatchObject({ status: "modified", byCommand: true, hunks: [{ oldText: "", newText: "two\n" }] })
    expect(fileOf(undone, created)).toMatchObject({ status: "created" })

    // Keep all: nothing is left to review, and the disk keeps everything.
    await server.request("workspace/executeCommand", { command: "agent.review.keepAll", arguments: [taskId] })
    expect((await server.request("agent/reviewChanges", { taskId })).files).toEqual([])
  }, 60_000)

  it("keeps the user's typing between two hunks out of the review, names typing inside a hunk on reject, and refuses a stale reject", async () => {
    const ws = await scopedWorkspace({ "src/app.txt": ORIGINAL })
    const api = await scopedFake([
      { toolCalls: [{ id: "t1", name: "write_to_file", input: { path: "src/app.txt", content: EDITED } }] },
      { toolCalls: [{ id: "t2", name: "attempt_completion", input: { result: "done" } }] },
    ])
    const server = await scopedServer({ workspace: ws.root, apiUrl: api.url })
    const app = ws.path("src/app.txt")
    server.openDocument(app)
    const taskId = await runTask(server)
    expect(server.docText(app)).toBe(EDITED)
    await reviewWith(server, taskId, 1)

    // Between the hunks (line 6): goes into the baseline, never shown as the agent's.
    const typedBetween = EDITED.replace("line 6\n", "line 6 typed by the user\n")
    userTypes(server, app, typedBetween)
    // The didChange and the request travel in order on one connection: the review has seen the typing.
    let review = await server.request("agent/reviewChanges", { taskId })
    expect(JSON.stringify(review)).not.toContain("typed by the user")
    expect(fileOf(review, app).hunks).toHaveLength(2)

    // Inside the second hunk: it joins the hunk, and rejecting it says the typing goes too.
    const typedInside = typedBetween.replace("line 10 by agent\n", "line 10 by agent and user\n")
    userTypes(server, app, typedInside)
    review = await server.request("agent/reviewChanges", { taskId })
    const inside = fileOf(review, app).hunks[1]
    expect(inside).toMatchObject({ oldText: "line 10\n", newText: "line 10 by agent and user\n", userEdited: true })

    // A stale hunk id (the user typed in that hunk since it was listed) is refused, nothing written.
    const stale = fileOf(review, app).hunks[0].hunkId
    userTypes(server, app, typedInside.replace("line 2 by agent\n", "line 2 by agent!\n"))
    const refused = await server.request("agent/reviewDecide", { taskId, decisions: [{ hunkId: stale, action: "reject" }] })
    expect(refused.rejected).toBe(0)
    expect(refused.failed[0].reason).toMatch(/changed since it was listed/)
    expect(server.docText(app)).toContain("line 2 by agent!")

    // The editor refuses a versioned edit when the user types while the reject is on its way.
    const realApply = server.handlers.applyEdit
    server.handlers.applyEdit = (params) => {
      server.handlers.applyEdit = realApply
      userTypes(server, app, `${server.docText(app)}typed at the end\n`)
      return server.applyWorkspaceEdit(params.edit)
    }
    const raced = await server.request("agent/reviewDecide", { taskId, decisions: [{ hunkId: inside.hunkId, action: "reject" }] })
    expect(raced).toMatchObject({ rejected: 0 })
    expect(raced.failed[0].reason).toMatch(/not rejected/)
    expect(server.docText(app)).toContain("line 10 by agent and user")

    const rejected = await server.request("agent/reviewDecide", { taskId, decisions: [{ hunkId: inside.hunkId, action: "reject" }] })
    expect(rejected).toMatchObject({ rejected: 1, failed: [], droppedUserEdits: [pathToFileURL(app).toString()] })
    expect(server.docText(app)).toContain("line 10\n")
    expect(server.docText(app)).toContain("line 6 typed by the user\n")
  }, 60_000)

  it("keeps the review across a restart, and counts a hunk staged in git as kept", async () => {
    const ws = await scopedWorkspace({ "app.txt": ORIGINAL })
    const { execFileSync } = await import("node:child_process")
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: ws.root })
    git("init", "-q")
    git("add", "app.txt")
    git("commit", "-qm", "start")
    const api = await scopedFake([
      { toolCalls: [{ id: "t1", name: "write_to_file", input: { path: "app.txt", content: EDITED } }] },
      { toolCalls: [{ id: "t2", name: "attempt_completion", input: { result: "done" } }] },
    ])
    const first = await scopedServer({ workspace: ws.root, apiUrl: api.url })
    const taskId = await runTask(first)
    await reviewWith(first, taskId, 1)
    await new Promise((r) => setTimeout(r, 300)) // the review is saved shortly after each change
    await first.stop()

    const second = await scopedServer({ workspace: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: join(first.stateHome, "state") } })
    const app = ws.path("app.txt")
    expect(fileOf(await second.request("agent/reviewChanges", { taskId }), app).hunks).toHaveLength(2)

    // Stage only the first hunk: the review then lists only the second.
    writeFileSync(app, ORIGINAL.replace("line 2\n", "line 2 by agent\n"))
    git("add", "app.txt")
    writeFileSync(app, EDITED)
    const review = await second.request("agent/reviewChanges", { taskId })
    expect(fileOf(review, app).hunks.map((h: any) => h.newText)).toEqual(["line 10 by agent\n"])
  }, 60_000)

  it("lists after a restart the hunks it stored for files as the agent left them, and diffs a file changed since anew", async () => {
    const ws = await scopedWorkspace({ "a.txt": ORIGINAL, "b.txt": ORIGINAL })
    const api = await scopedFake([
      { toolCalls: [{ id: "t1", name: "write_to_file", input: { path: "a.txt", content: EDITED } }] },
      { toolCalls: [{ id: "t2", name: "write_to_file", input: { path: "b.txt", content: EDITED } }] },
      { toolCalls: [{ id: "t3", name: "attempt_completion", input: { result: "done" } }] },
    ])
    const first = await scopedServer({ workspace: ws.root, apiUrl: api.url })
    const taskId = await runTask(first)
    const before = await reviewWith(first, taskId, 2)
    await new Promise((r) => setTimeout(r, 300)) // the review is saved shortly after each change
    await first.stop()
    // The review file: its format's line, then its JSON (texts by number), then the texts.
    const [format, json] = readFileSync(join(first.stateHome, "state", "agent-lsp", "reviews", `${taskId}.json`), "utf8").split("\n")
    expect(format).toBe("agent-lsp review 2")
    expect(Object.keys(JSON.parse(json!).hunks).sort()).toEqual([ws.path("a.txt"), ws.path("b.txt")])

    // While the server is down, b.txt changes again (the user, another tool): its stored hunks no longer apply.
    writeFileSync(ws.path("b.txt"), EDITED.replace("line 6\n", "line 6 elsewhere\n"))
    const second = await scopedServer({ workspace: ws.root, apiUrl: api.url, env: { XDG_STATE_HOME: join(first.stateHome, "state") } })
    const after = await second.request("agent/reviewChanges", { taskId })
    expect(fileOf(after, ws.path("a.txt"))).toEqual(fileOf(before, ws.path("a.txt")))
    expect(fileOf(after, ws.path("b.txt")).hunks.map((h: any) => h.newText)).toEqual([
      "line 2 by agent\n",
      "line 6 elsewhere\n",
      "line 10 by agent\n",
    ])
  }, 60_000)
})
