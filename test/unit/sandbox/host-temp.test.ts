import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { taskTempDir } from "../../../server/src/sandbox"
import { hostTempCover } from "../../../server/src/sandbox/policy"
import { startSandboxed, tempHome } from "../../support/sandboxed-command"
import { setArtifactDir } from "../../../server/src/terminal/artifacts"
import { tempWorkspace } from "../../support/temp-workspace"

/**
 * The server keeps every task's private /tmp, the network proxies' sockets and the commands' output in its
 * own temporary folder ($TMPDIR). Where that is /tmp the sandbox's private /tmp hides it; where a user's
 * TMPDIR names another folder (here one under /var/tmp, as `TMPDIR=~/tmp` or a CI runner's would), a command
 * of one task must still not read another task's /tmp. Real bash in real bubblewrap tries.
 */

const hostTemp = realpathSync(mkdtempSync("/var/tmp/agent-lsp-hosttmp-"))
const savedTmpdir = process.env.TMPDIR
// Before the server's first sandboxed command, which makes its private folder in $TMPDIR.
process.env.TMPDIR = hostTemp
const artifacts = join(hostTemp, "artifacts")
mkdirSync(artifacts)
setArtifactDir(artifacts)
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  setArtifactDir(undefined)
  process.env.TMPDIR = savedTmpdir
  for (const cleanup of cleanups) await cleanup()
  rmSync(hostTemp, { recursive: true, force: true })
})

async function folders() {
  const home = await tempHome()
  const ws = await tempWorkspace({ "a.txt": "a\n" }, "/var/tmp")
  cleanups.push(home.cleanup, ws.cleanup)
  return { home: home.root, ws: ws.root }
}

describe("the server's temporary folder when $TMPDIR is not /tmp", () => {
  it("refuses a command of one task reading another task's /tmp, its command output and the host's temp files", async () => {
    const { home, ws } = await folders()
    writeFileSync(join(hostTemp, "host-file.txt"), "HOST-TEMP-FILE\n")
    const policy = (task: string) => ({ workspaceFolders: [ws], home, network: { allowedHosts: [] }, tempDir: taskTempDir(task) })
    const first = await startSandboxed("echo TASK-A-NOTES > /tmp/notes && cat /tmp/notes", policy("task-a")).done
    expect(first.output).toContain("TASK-A-NOTES")
    const notes = join(taskTempDir("task-a"), "notes")
    const second = await startSandboxed(
      `cat ${notes}; cat ${join(hostTemp, "host-file.txt")}; grep -rs TASK-A-NOTES ${artifacts} | head -3; ls /tmp/notes; echo done`,
      policy("task-b"),
    ).done
    expect(second.output).toContain("done")
    expect(second.output).not.toContain("TASK-A-NOTES")
    expect(second.output).not.toContain("HOST-TEMP-FILE")
    // The task's own /tmp and the workspace still work.
    const own = await startSandboxed("cat /tmp/notes && echo more >> a.txt && cat a.txt", policy("task-a")).done
    expect(own.output).toContain("TASK-A-NOTES")
    expect(own.output).toContain("a\nmore")
  })

  it("still shows a workspace folder that lies inside $TMPDIR, writable", async () => {
    const home = await tempHome()
    cleanups.push(home.cleanup)
    const ws = await tempWorkspace({ "a.txt": "inside\n" }, hostTemp)
    const run = await startSandboxed("echo written >> a.txt && cat a.txt", {
      workspaceFolders: [ws.root],
      home: home.root,
      network: { allowedHosts: [] },
    }).done
    expect(run.code).toBe(0)
    expect(run.output).toContain("inside\nwritten")
  })

  it("hides $TMPDIR when it lies inside a workspace folder, where the folder's bind would show it again", async () => {
    const { home, ws } = await folders()
    const inside = join(ws, ".cache-tmp")
    mkdirSync(inside)
    writeFileSync(join(inside, "other-task.txt"), "INSIDE-TEMP\n")
    process.env.TMPDIR = inside
    try {
      expect(hostTempCover()).toBe(inside)
      const run = await startSandboxed("cat .cache-tmp/other-task.txt; echo x > .cache-tmp/new.txt; echo done", {
        workspaceFolders: [ws],
        home,
        network: { allowedHosts: [] },
      }).done
      expect(run.output).toContain("done")
      expect(run.output).not.toContain("INSIDE-TEMP")
    } finally {
      process.env.TMPDIR = hostTemp
    }
  })

  it("leaves $TMPDIR uncovered when the command's home lies inside it, so the home still shows", async () => {
    const home = await tempWorkspace({ ".profile-note": "HOME-FILE\n" }, hostTemp)
    const { ws } = await folders()
    const run = await startSandboxed(`cat ${home.path(".profile-note")}`, {
      workspaceFolders: [ws],
      home: home.root,
      network: { allowedHosts: [] },
    }).done
    expect(run.output).toContain("HOME-FILE")
  })

  it("leaves a $TMPDIR that holds the home, or is under /tmp, as it was", () => {
    expect(hostTempCover("/tmp", "/home/u")).toBeUndefined()
    expect(hostTempCover("/", "/home/u")).toBeUndefined()
    expect(hostTempCover(hostTemp, join(hostTemp, "home"))).toBeUndefined()
    expect(hostTempCover(hostTemp, "/home/u")).toBe(hostTemp)
  })
})
