import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it, onTestFinished } from "vitest"
import { startSession, toolResultIn, toolResultText } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * Paths that change under the agent, through the built server: a file or folder swapped for a symbolic link
 * while the user looks at the approval question (as a command running in the background can do), and a
 * folder swapped for a link out of the workspace before a checkpoint is restored. Nothing may land on the
 * link's target.
 */

const HOOK = "#!/bin/sh\nexit 0\n"
const done = { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }

/**
 * A git repository with a pre-commit hook, a .rooignore'd file and src/app.ts, cleaned up after the test. All
 * three hold the same text, as an attacker arranges: the edit's check that the file still holds the text it was
 * prepared from then passes after the swap (a repository can ship a copy of any file whose text it knows).
 */
async function repository() {
  const ws = await tempWorkspace({ ".rooignore": "secrets/\n", "secrets/key.txt": HOOK, "src/app.ts": HOOK })
  onTestFinished(() => ws.cleanup())
  execFileSync("git", ["init", "-q"], { cwd: ws.root })
  writeFileSync(ws.path(".git/hooks/pre-commit"), HOOK, { mode: 0o755 })
  return ws
}

/** Replaces `path` (a file) with a symbolic link to `target`. */
function swapForLink(path: string, target: string): void {
  rmSync(path)
  symlinkSync(target, path)
}

describe("a path swapped for a symbolic link after the edit was approved", () => {
  for (const [name, target, victim] of [
    ["a git hook", "../.git/hooks/pre-commit", ".git/hooks/pre-commit"],
    ["a .rooignore'd file", "../secrets/key.txt", "secrets/key.txt"],
  ] as const) {
    it(`writes nothing through a file swapped for a link to ${name} (file not open: the server writes)`, async () => {
      const ws = await repository()
      const before = readFileSync(ws.path(victim), "utf8")
      const write = { id: "toolu_write", name: "write_to_file", input: { path: "src/app.ts", content: "PAYLOAD\n" } }
      const { server, api } = await startSession([{ toolCalls: [write] }, done], { workspace: ws.root })
      server.handlers.requestApproval = (params) => {
        swapForLink(ws.path("src/app.ts"), target)
        return { optionId: params.options.find((o: any) => o.kind === "allow_once")?.optionId }
      }
      const { taskId } = await server.request("agent/newTask", { text: "edit app" })
      await server.waitForStatus(taskId, "completed", 30_000)
      expect(readFileSync(ws.path(victim), "utf8")).toBe(before)
      const result = toolResultIn(api.requests[1], "toolu_write")
      expect(result.is_error).toBe(true)
      expect(toolResultText(result)).toContain("It was not written")
    })
  }

  it("writes nothing through a file swapped for a link to a git hook while it is open in the editor (the editor saves)", async () => {
    const ws = await repository()
    const write = { id: "toolu_write", name: "write_to_file", input: { path: "src/app.ts", content: "PAYLOAD\n" } }
    const { server, api } = await startSession([{ toolCalls: [write] }, done], { workspace: ws.root })
    server.openDocument(ws.path("src/app.ts"))
    server.handlers.requestApproval = (params) => {
      swapForLink(ws.path("src/app.ts"), "../.git/hooks/pre-commit")
      return { optionId: params.options.find((o: any) => o.kind === "allow_once")?.optionId }
    }
    const { taskId } = await server.request("agent/newTask", { text: "edit app" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(readFileSync(ws.path(".git/hooks/pre-commit"), "utf8")).toBe(HOOK)
    expect(server.serverRequests.filter((r) => r.method === "workspace/applyEdit")).toEqual([])
    expect(toolResultText(toolResultIn(api.requests[1], "toolu_write"))).toContain("now leads to")
  })

  it("deletes nothing outside through a folder swapped for a link to outside (apply_patch Delete File)", async () => {
    const ws = await repository()
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-outside-")))
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
    writeFileSync(join(outside, "app.ts"), "OUTSIDE\n")
    const patch = "*** Begin Patch\n*** Delete File: src/app.ts\n*** End Patch"
    const call = { id: "toolu_patch", name: "apply_patch", input: { patch } }
    const { server, api } = await startSession([{ toolCalls: [call] }, done], {
      workspace: ws.root,
      initializationOptions: { agent: { tools: { enabled: ["apply_patch"] } } },
    })
    server.handlers.requestApproval = (params) => {
      renameSync(ws.path("src"), ws.path("src.old"))
      symlinkSync(outside, ws.path("src"))
      return { optionId: params.options.find((o: any) => o.kind === "allow_once")?.optionId }
    }
    const { taskId } = await server.request("agent/newTask", { text: "delete app" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(readFileSync(join(outside, "app.ts"), "utf8")).toBe("OUTSIDE\n")
    expect(toolResultText(toolResultIn(api.requests[1], "toolu_patch"))).toContain("It was not written")
  })
})

describe("restoring a checkpoint", () => {
  it("refuses, writing nothing, when a folder of the checkpoint is now a .gitignore'd link out of the workspace", async () => {
    const ws = await tempWorkspace({ "sub/.bashrc": "echo pwned\n", "a.txt": "a\n" })
    onTestFinished(() => ws.cleanup())
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-home-")))
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
    const write = { id: "toolu_a", name: "write_to_file", input: { path: "a.txt", content: "b\n" } }
    const { server } = await startSession([{ toolCalls: [write] }, done], { workspace: ws.root })
    const { taskId } = await server.request("agent/newTask", { text: "edit a" })
    await server.waitForStatus(taskId, "completed", 30_000)
    const { checkpoints } = await server.request("agent/listCheckpoints", { taskId })
    // What a command can do inside the sandbox: hide a folder from the snapshots and put a link in its place.
    writeFileSync(ws.path(".gitignore"), "sub\n")
    renameSync(ws.path("sub"), ws.path("elsewhere"))
    symlinkSync(outside, ws.path("sub"))
    const restored = server.request("agent/restoreCheckpoint", { id: checkpoints[0].id })
    await expect(restored).rejects.toThrow(/Nothing was restored: sub\/\.bashrc would be written at .*outside the workspace/)
    expect(existsSync(join(outside, ".bashrc"))).toBe(false)
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("b\n")
  })
})

describe("rejecting a change in the review", () => {
  it("writes nothing through a file swapped for a link to a git hook after the agent changed it", async () => {
    const ws = await repository()
    writeFileSync(ws.path("src/app.ts"), "PAYLOAD\n")
    // The agent writes the hook's text, so the file still reads as the agent left it once it is a link to the hook.
    const write = { id: "toolu_write", name: "write_to_file", input: { path: "src/app.ts", content: HOOK } }
    const { server } = await startSession([{ toolCalls: [write] }, done], { workspace: ws.root })
    const { taskId } = await server.request("agent/newTask", { text: "edit app" })
    await server.waitForStatus(taskId, "completed", 30_000)
    await server.waitFor(() => server.updatesOf(taskId).find((u) => u.kind === "review"))
    swapForLink(ws.path("src/app.ts"), "../.git/hooks/pre-commit")
    const decided = await server.request("agent/reviewDecide", {
      taskId,
      decisions: [{ uri: pathToFileURL(ws.path("src/app.ts")).toString(), action: "reject" }],
    })
    expect(readFileSync(ws.path(".git/hooks/pre-commit"), "utf8")).toBe(HOOK)
    expect(decided.rejected).toBe(0)
    expect(JSON.stringify(decided.failed)).toContain("now leads to")
  })
})
