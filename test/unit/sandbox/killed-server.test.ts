import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ownStartTime } from "../../../server/src/sandbox/placeholder-holders"
import { pollUntil } from "../../support/poll"
import { sandboxTestFolders } from "../../support/sandboxed-command"
import type { TempWorkspace } from "../../support/temp-workspace"

/**
 * A server killed outright (SIGKILL, the OOM killer) removes nothing, neither after its command nor at exit:
 * the next server removes its placeholders, from the journal it kept, at its first sandboxed command. The
 * servers are child processes (test/support/other-server-command.ts), each with a TMPDIR of this test's, so
 * their journals and busy-folder files are apart from every other test's.
 */

const SERVER = join(__dirname, "../../support/other-server-command.ts")
const folders = sandboxTestFolders()

interface Server {
  child: ChildProcess
  /** Its exit, or a rejection (the server killed) after `ms`. */
  finished(ms: number): Promise<{ code: number | null; output: string }>
}

function server(ws: TempWorkspace, tmp: TempWorkspace, line: string): Server {
  const child = spawn(process.execPath, ["--import", "tsx", SERVER, ws.root, line, folders.home().root], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, TMPDIR: tmp.root },
  })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)))
  return {
    child,
    finished: (ms) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill("SIGKILL")
          reject(new Error(`the server did not exit within ${ms} ms: ${output}`))
        }, ms)
        void exited.then((code) => {
          clearTimeout(timer)
          resolve({ code, output })
        })
      }),
  }
}

const holders = (tmp: TempWorkspace) => join(tmp.root, `agent-lsp-${process.getuid!()}-sandbox-holders`)
const journals = (tmp: TempWorkspace) => readdirSync(holders(tmp)).filter((name) => name.endsWith(".placeholders"))

/** What a journal records of the folder or file at `path` (a placeholder as a server made it). */
function entry(path: string, content = "") {
  const stat = lstatSync(path)
  return { path, kind: stat.isDirectory() ? "dir" : "file", content, dev: stat.dev, ino: stat.ino, birthtimeMs: stat.birthtimeMs }
}

/** A pid no process has now (a child that has exited and been reaped). */
const deadPid = () => spawnSync("/bin/true").pid!

describe("placeholders of a server killed outright", () => {
  it("are removed by the next server's first command, except where the user has since made the path theirs", async () => {
    const ws = await folders.gitWorkspace()
    const tmp = await folders.workspace()
    // Without a config git directory's config, the killed server makes a file placeholder for it too.
    unlinkSync(ws.path(".git/config"))
    const killed = server(ws, tmp, "touch ready; for i in $(seq 600); do [ -e go ] && break; sleep 0.05; done")
    try {
      await pollUntil("the command of the server to kill", () => existsSync(ws.path("ready")), 30_000)
    } catch (error) {
      killed.child.kill("SIGKILL")
      throw error
    }
    expect(journals(tmp)).toHaveLength(1)
    expect(statSync(ws.path(".envrc")).isDirectory()).toBe(true)
    expect(readFileSync(ws.path(".git/commondir"), "utf8")).toBe(".\n")
    // The user's, made while the command ran: a folder in the placeholder's place (another inode), a file
    // instead of a placeholder folder, a file in a placeholder folder, text written into a placeholder file.
    mkdirSync(ws.path("new-roo")) // made before the placeholder goes, so it cannot get its inode number
    rmdirSync(ws.path(".roo"))
    renameSync(ws.path("new-roo"), ws.path(".roo"))
    rmdirSync(ws.path(".roomodes"))
    writeFileSync(ws.path(".roomodes"), "customModes: []\n")
    writeFileSync(ws.path(".vscode/settings.json"), "{}\n")
    writeFileSync(ws.path(".git/config"), "[user]\n\tname = me\n")

    killed.child.kill("SIGKILL")
    await killed.finished(30_000) // reaped: its pid is gone
    expect(statSync(ws.path(".envrc")).isDirectory()).toBe(true) // what the kill leaves
    expect(journals(tmp)).toHaveLength(1)

    const next = await server(ws, tmp, "echo next-ran").finished(60_000)
    expect(next).toEqual({ code: 0, output: "next-ran\n" })
    expect(readdirSync(ws.root).sort()).toEqual([".git", ".roo", ".roomodes", ".vscode", "ready", "src"])
    expect(readdirSync(ws.path(".roo"))).toEqual([])
    expect(readFileSync(ws.path(".roomodes"), "utf8")).toBe("customModes: []\n")
    expect(readdirSync(ws.path(".vscode"))).toEqual(["settings.json"])
    expect(readFileSync(ws.path(".git/config"), "utf8")).toBe("[user]\n\tname = me\n")
    expect(existsSync(ws.path(".git/commondir"))).toBe(false)
    expect(journals(tmp)).toEqual([]) // the killed server's removed, and the next one's own cleared at its end
  }, 120_000)

  it("leaves a live server's journal, a path another live server's folder holds, a name that is no placeholder's, and survives corrupt journals", async () => {
    const tmp = await folders.workspace()
    const here = await folders.workspace()
    const live = await folders.workspace()
    const busy = await folders.workspace()
    const dead = await folders.workspace({ "sub/x": "" })
    for (const ws of [live, busy, dead]) mkdirSync(ws.path(".envrc"))
    mkdirSync(dead.path("notes"))
    mkdirSync(dead.path(".nvimrc"))
    mkdirSync(holders(tmp), { mode: 0o700 })
    const journal = (pid: number, start: string, text: string) => {
      const file = join(holders(tmp), `${pid}-${start}.placeholders`)
      writeFileSync(file, text)
      return file
    }
    const liveJournal = journal(process.pid, ownStartTime(), JSON.stringify([entry(live.path(".envrc"))]))
    const busyJournal = journal(deadPid(), "1", JSON.stringify([entry(busy.path(".envrc"))]))
    // The busy folder is another live server's (this test process) while it runs a command there.
    writeFileSync(join(holders(tmp), `${process.pid}-busy.json`), JSON.stringify({ pid: process.pid, start: "", folder: busy.root }))
    const deadJournal = journal(
      deadPid(),
      "1",
      JSON.stringify([
        entry(dead.path(".envrc")),
        entry(dead.path("notes")), // not a placeholder's name
        { ...entry(dead.path(".nvimrc")), path: `${dead.root}/sub/../.nvimrc` }, // not a normalized path
        { ...entry(dead.path(".nvimrc")), path: ".nvimrc" }, // not absolute
        { ...entry(dead.path(".nvimrc")), kind: "file" }, // not the kind its name calls for
        { path: dead.path(".nvimrc"), kind: "dir" }, // no identity
        "text",
        null,
      ]),
    )
    const corrupt = [journal(deadPid(), "1", "{ not json"), journal(deadPid(), "2", "null"), journal(deadPid(), "3", "")]
    const fifo = join(holders(tmp), `${deadPid()}-1.placeholders`)
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0) // opening it for reading must not wait for a writer

    const next = await server(here, tmp, "echo next-ran").finished(60_000)
    expect(next).toEqual({ code: 0, output: "next-ran\n" })
    expect(existsSync(dead.path(".envrc"))).toBe(false) // this run's cleanup did run
    expect(existsSync(deadJournal)).toBe(false)
    expect(statSync(live.path(".envrc")).isDirectory()).toBe(true)
    expect(existsSync(liveJournal)).toBe(true)
    expect(statSync(busy.path(".envrc")).isDirectory()).toBe(true)
    expect(existsSync(busyJournal)).toBe(true) // kept for a later look, once the busy folder is free
    for (const name of ["notes", ".nvimrc"]) expect(statSync(dead.path(name)).isDirectory()).toBe(true)
    for (const file of [...corrupt, fifo]) expect(existsSync(file)).toBe(false) // a dead server's, and unreadable
    rmSync(holders(tmp), { recursive: true, force: true })
  }, 120_000)
})
