import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from "../support/fake-anthropic"
import { startServer, type ServerHarness } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"

/**
 * The path sandbox and .rooignore through the built server: escapes by `..`, by absolute path and by
 * symlink are refused to reading and writing tools with a message naming the path and the workspace root,
 * nothing is written outside, and ignored paths get Roo's access_denied JSON, are left out of search
 * results and are marked in listings.
 */

let server: ServerHarness | undefined
let api: FakeAnthropic | undefined
let ws: TempWorkspace | undefined
let outside: string | undefined
afterEach(async () => {
  await server?.stop()
  await api?.close()
  await ws?.cleanup()
  if (outside) rmSync(outside, { recursive: true, force: true })
  server = api = ws = outside = undefined
})

type Call = { id: string; name: string; input: unknown }

/**
 * A workspace with a `.rooignore`, a folder outside it holding secret.txt, and links out of the workspace
 * (a folder link, a file link, a dangling link).
 */
async function makeFolders() {
  outside = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-outside-")))
  writeFileSync(join(outside, "secret.txt"), "TOP SECRET\n")
  ws = await tempWorkspace({
    ".rooignore": "secrets/\n*.env\n",
    "src/visible.ts": "export const needle = 1\n",
    "src/app.ts": "export const app = true\n",
    "secrets/key.txt": "needle in the secrets folder\n",
    "config.env": "TOKEN=needle\n",
  })
  symlinkSync(outside, ws.path("link"))
  symlinkSync(join(outside, "secret.txt"), ws.path("secret-link.txt"))
  symlinkSync(join(outside, "not-yet.txt"), ws.path("dangling.txt"))
  return { ws, outside }
}

/**
 * A model that makes `calls` in one turn, then completes, against the server on the workspace of
 * makeFolders(). The mistake limit is raised so that several refused edits in one turn are all reported.
 */
async function runCalls(calls: Call[]) {
  api = await startFakeAnthropic([
    { toolCalls: calls },
    { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
  ])
  server = await startServer({
    workspace: ws!.root,
    apiUrl: api.url,
    initializationOptions: { agent: { limits: { consecutiveMistakes: 20 } } },
  })
  const { taskId } = await server.request("agent/newTask", { text: "poke at the sandbox" })
  await server.waitForStatus(taskId, "completed")
  return { taskId, result: (id: string) => toolResultOf(api!.requests[1], id) }
}

function toolResultOf(request: RecordedRequest | undefined, id: string): { isError: boolean; text: string } {
  const block = request?.body.messages.at(-1).content.find((b: any) => b.type === "tool_result" && b.tool_use_id === id)
  if (!block) throw new Error(`no tool_result for ${id}`)
  const text = typeof block.content === "string" ? block.content : block.content.map((b: any) => b.text ?? "").join("\n")
  return { isError: block.is_error === true, text }
}

/** The Roo-shaped JSON error inside a tool_result text. */
function rooJson(text: string): unknown {
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1))
}

const pathOf = (call: Call) => (call.input as { path: string }).path

describe("the path sandbox through the built server", () => {
  it("refuses read_file of ../x, an absolute path outside, and symlinks out of the workspace, naming the path and the root", async () => {
    const { ws, outside } = await makeFolders()
    const calls: Call[] = [
      { id: "toolu_dotdot", name: "read_file", input: { path: `../${basename(outside)}/secret.txt` } },
      { id: "toolu_abs", name: "read_file", input: { path: join(outside, "secret.txt") } },
      { id: "toolu_dirlink", name: "read_file", input: { path: "link/secret.txt" } },
      { id: "toolu_filelink", name: "read_file", input: { path: "secret-link.txt" } },
    ]
    const { taskId, result } = await runCalls(calls)
    for (const call of calls) {
      const { isError, text } = result(call.id)
      expect(isError, call.id).toBe(true)
      expect(text, call.id).toContain(`"${pathOf(call)}"`)
      expect(text, call.id).toContain(ws.root)
      expect(text, call.id).not.toContain("TOP SECRET")
    }
    expect(result("toolu_dirlink").text).toContain("symbolic link")
    expect(result("toolu_filelink").text).toContain("symbolic link")
    const editorSaw = server!.updatesOf(taskId).filter((u) => u.kind === "toolResult" && u.tool === "read_file")
    expect(editorSaw.map((u) => (u as { isError: boolean }).isError)).toEqual([true, true, true, true])
  })

  it("refuses write_to_file to ../x, an absolute path outside, and through links, and writes nothing outside", async () => {
    const { ws, outside } = await makeFolders()
    const calls: Call[] = [
      { id: "toolu_dotdot", name: "write_to_file", input: { path: `../${basename(outside)}/dotdot.txt`, content: "x\n" } },
      { id: "toolu_abs", name: "write_to_file", input: { path: join(outside, "abs.txt"), content: "x\n" } },
      { id: "toolu_dirlink", name: "write_to_file", input: { path: "link/via-link.txt", content: "x\n" } },
      { id: "toolu_filelink", name: "write_to_file", input: { path: "secret-link.txt", content: "overwritten\n" } },
      { id: "toolu_dangling", name: "write_to_file", input: { path: "dangling.txt", content: "x\n" } },
    ]
    const { taskId, result } = await runCalls(calls)
    for (const call of calls) {
      const { isError, text } = result(call.id)
      expect(isError, call.id).toBe(true)
      expect(text, call.id).toContain(`"${pathOf(call)}"`)
      expect(text, call.id).toContain(ws.root)
    }
    expect(readdirSync(outside)).toEqual(["secret.txt"])
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n")
    // Refused before the approval step: the user is not even asked.
    expect(server!.serverRequests.filter((r) => r.method === "agent/requestApproval" || r.method === "workspace/applyEdit")).toEqual([])
    expect(server!.updatesOf(taskId).filter((u) => u.kind === "toolResult" && u.tool === "write_to_file" && u.isError)).toHaveLength(5)
  })
})

describe(".rooignore through the built server", () => {
  it("refuses reading and writing ignored paths with Roo's access_denied JSON", async () => {
    const { ws } = await makeFolders()
    const calls: Call[] = [
      { id: "toolu_read", name: "read_file", input: { path: "secrets/key.txt" } },
      { id: "toolu_write", name: "write_to_file", input: { path: "config.env", content: "TOKEN=changed\n" } },
      { id: "toolu_new", name: "write_to_file", input: { path: "secrets/new.txt", content: "x\n" } },
      {
        id: "toolu_diff",
        name: "apply_diff",
        input: { path: "config.env", diff: "<<<<<<< SEARCH\nTOKEN=needle\n=======\nTOKEN=other\n>>>>>>> REPLACE" },
      },
    ]
    const { result } = await runCalls(calls)
    for (const call of calls) {
      const { isError, text } = result(call.id)
      expect(isError, call.id).toBe(true)
      expect(rooJson(text), call.id).toEqual({
        status: "error",
        type: "access_denied",
        message: "Access blocked by .rooignore",
        path: pathOf(call),
      })
      expect(text, call.id).not.toContain("needle in the secrets folder")
    }
    expect(readFileSync(ws.path("config.env"), "utf8")).toBe("TOKEN=needle\n")
    expect(existsSync(ws.path("secrets/new.txt"))).toBe(false)
    expect(server!.serverRequests.filter((r) => r.method === "agent/requestApproval")).toEqual([])
  })

  it("leaves ignored files out of search_files and marks them in list_files", async () => {
    await makeFolders()
    const { taskId, result } = await runCalls([
      { id: "toolu_search", name: "search_files", input: { path: ".", regex: "needle" } },
      { id: "toolu_list", name: "list_files", input: { path: ".", recursive: true } },
    ])
    const search = result("toolu_search")
    expect(search.isError).toBe(false)
    expect(search.text).toContain("src/visible.ts")
    expect(search.text).toContain("1 | export const needle = 1")
    expect(search.text).not.toContain("secrets")
    expect(search.text).not.toContain("config.env")

    const list = result("toolu_list")
    expect(list.isError).toBe(false)
    const lines = list.text.split("\n")
    expect(lines).toContain("🔒 secrets/")
    expect(lines).toContain("🔒 config.env")
    expect(lines).toContain("src/visible.ts")
    // Not descended into: the ignored folder's files are not listed.
    expect(list.text).not.toContain("secrets/key.txt")
    expect(server!.updatesOf(taskId)).toContainEqual(
      expect.objectContaining({ kind: "toolResult", callId: "toolu_search", isError: false }),
    )
  })

  it("refuses a command whose working directory is outside or ignored, or that reads an ignored file, without asking", async () => {
    const { outside } = await makeFolders()
    const calls: Call[] = [
      { id: "toolu_cwd_out", name: "execute_command", input: { command: "ls", cwd: outside } },
      { id: "toolu_cwd_link", name: "execute_command", input: { command: "ls", cwd: "link" } },
      { id: "toolu_cwd_ignored", name: "execute_command", input: { command: "ls", cwd: "secrets" } },
      { id: "toolu_cat", name: "execute_command", input: { command: "cat secrets/key.txt" } },
    ]
    const { result } = await runCalls(calls)
    for (const call of calls) expect(result(call.id).isError, call.id).toBe(true)
    expect(result("toolu_cwd_out").text).toContain(outside)
    expect(result("toolu_cwd_link").text).toContain("symbolic link")
    expect(rooJson(result("toolu_cwd_ignored").text)).toMatchObject({ type: "access_denied", path: "secrets" })
    expect(rooJson(result("toolu_cat").text)).toMatchObject({ type: "access_denied", path: "secrets/key.txt" })
    expect(result("toolu_cat").text).not.toContain("needle in the secrets folder")
    expect(server!.serverRequests.filter((r) => r.method === "agent/requestApproval")).toEqual([])
  })
})
