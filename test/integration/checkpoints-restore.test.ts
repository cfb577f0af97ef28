import { describe, expect, it, onTestFinished } from "vitest"
import { execFileSync } from "node:child_process"
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { pollUntil } from "../support/poll"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/** Every file under `root`, .git folders included: path → mode and bytes. */
function snapshot(root: string, dir = ""): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = join(dir, entry.name)
    if (entry.isDirectory()) Object.assign(out, snapshot(root, rel))
    else out[rel] = `${(lstatSync(join(root, rel)).mode & 0o777).toString(8)}:${readFileSync(join(root, rel)).toString("base64")}`
  }
  return out
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8" })

describe("checkpoints through the built server", () => {
  it("restores two edited files and a command's new file byte for byte, with a nested repo, and open buffers follow", async () => {
    const ws = await tempWorkspace({ "a.txt": "alpha\n", "notes.md": "# notes\n", "vendor/lib/lib.txt": "library\n" })
    git(ws.path("vendor/lib"), "init", "-q")
    git(ws.path("vendor/lib"), "add", "-A")
    git(ws.path("vendor/lib"), "commit", "-qm", "vendored")
    const before = snapshot(ws.root)
    const { server } = await startSession(
      [
        {
          toolCalls: [
            { id: "toolu_a", name: "write_to_file", input: { path: "a.txt", content: "alpha rewritten\n" } },
            { id: "toolu_lib", name: "write_to_file", input: { path: "vendor/lib/lib.txt", content: "library patched\n" } },
            { id: "toolu_cmd", name: "execute_command", input: { command: "echo made > third.txt" } },
          ],
        },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root },
    )
    onTestFinished(() => ws.cleanup())
    server.openDocument(ws.path("a.txt"))
    const { taskId } = await server.request("agent/newTask", { text: "Edit things." })
    await server.waitForStatus(taskId, "completed", 30_000)

    const listed: { checkpoints: { id: string; label: string }[] } = await server.request("agent/listCheckpoints", { taskId })
    expect(readFileSync(ws.path("third.txt"), "utf8")).toBe("made\n")
    expect(server.docText(ws.path("a.txt"))).toBe("alpha rewritten\n")
    const announced = server.updatesOf(taskId).filter((u) => u.kind === "checkpoint")
    expect(announced).toHaveLength(1)
    expect(listed.checkpoints.map((c) => c.id)).toEqual([(announced[0] as { checkpointId: string }).checkpointId])

    const { diff } = await server.request("agent/diffCheckpoint", { id: listed.checkpoints[0]!.id })
    expect(diff).toContain("+alpha rewritten")
    expect(diff).toContain("+++ b/third.txt")

    const { restored } = await server.request("agent/restoreCheckpoint", { id: listed.checkpoints[0]!.id })
    expect([...restored].sort()).toEqual([ws.path("a.txt"), ws.path("third.txt"), ws.path("vendor/lib/lib.txt")].sort())
    // The command's sandbox placeholders (the nested repository's .git/commondir among them) linger half a
    // second after it for a next command (docs/sandbox.md); this snapshot reads inside .git, so it waits.
    // The server removes them one by one: wait for that one and for the whole tree.
    const settled = () => !existsSync(ws.path("vendor/lib/.git/commondir")) && JSON.stringify(snapshot(ws.root)) === JSON.stringify(before)
    await pollUntil("the placeholders are gone", settled, 10_000).catch(() => undefined)
    expect(existsSync(ws.path("vendor/lib/.git/commondir"))).toBe(false)
    expect(snapshot(ws.root)).toEqual(before)
    expect(server.docText(ws.path("a.txt"))).toBe("alpha\n")
    expect(git(ws.path("vendor/lib"), "status", "--porcelain")).toBe("")
  })
})
