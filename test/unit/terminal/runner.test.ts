import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { execFileSync } from "node:child_process"
import { readFileSync, statSync, writeFileSync } from "node:fs"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { setArtifactDir } from "../../../server/src/terminal/artifacts"
import { startCommand, type CommandOptions } from "../../../server/src/terminal/runner"
import { commandEnv } from "../../../server/src/terminal/env"
import { groupMembers } from "../../../server/src/terminal/process-group"

let ws: TempWorkspace
beforeAll(async () => {
  ws = await tempWorkspace({})
  setArtifactDir(ws.path(".artifacts"))
})
afterAll(async () => {
  setArtifactDir(undefined)
  await ws.cleanup()
})

const base = (command: string, extra: Partial<CommandOptions> = {}): CommandOptions => ({
  command,
  cwd: ws.root,
  hardTimeoutSeconds: 0,
  maxLines: 500,
  maxBytes: 50 * 1024,
  shell: ["/bin/sh", "-c"],
  // Through the real OS sandbox: process-group kills, streaming and timeouts must hold through bwrap.
  sandbox: { kind: "sandboxed", policy: { workspaceFolders: [ws.root], network: { allowedHosts: [] } } },
  ...extra,
})

/** Live processes of a group per `ps` (zombies excluded), as an outside observer sees them. */
function psGroup(pgid: number): string[] {
  let out = ""
  try {
    out = execFileSync("ps", ["-o", "pid=,stat=", "-g", String(pgid)], { encoding: "utf8" })
  } catch {
    return [] // ps exits 1 when nothing matches
  }
  return out
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/\sZ/.test(l))
}

/** Resolves once `predicate` holds for the streamed text; after 20 s fails with what was streamed (it says why). */
function waitForOutput(seen: () => string, predicate: (s: string) => boolean): Promise<void> {
  const deadline = Date.now() + 20_000
  return new Promise((resolve, reject) => {
    const check = () => {
      if (predicate(seen())) return resolve()
      if (Date.now() > deadline)
        return reject(new Error(`the expected output did not come in 20 s; streamed so far: ${JSON.stringify(seen())}`))
      setTimeout(check, 10)
    }
    check()
  })
}

describe("startCommand", () => {
  it("streams output before the command exits", async () => {
    let streamed = ""
    let finished = false
    const run = startCommand(base(`echo ready; while [ ! -f go ]; do sleep 0.02; done; echo after`, { onOutput: (t) => (streamed += t) }))
    void run.done.then(() => (finished = true))
    await waitForOutput(
      () => streamed,
      (s) => s.includes("ready"),
    )
    expect(finished).toBe(false)
    writeFileSync(ws.path("go"), "")
    const outcome = await run.done
    expect(outcome).toMatchObject({ exitCode: 0, signal: null })
    expect(streamed).toBe("ready\nafter\n")
  })

  it("merges stdout and stderr and reports the exit code", async () => {
    const run = startCommand(base("echo out; echo err >&2; exit 7"))
    expect((await run.done).exitCode).toBe(7)
    expect(run.window.render(() => "")).toBe("out\nerr\n")
  })

  it("keeps every one of many small writes, in order per stream, and streams them in batches", async () => {
    // 4,000 writes of a few bytes (as `rg -c` prints one line per file): each pipe's lines arrive whole and in
    // order, and the editor gets them in batches rather than one notification per read.
    const writes = 2000
    let events = 0
    const run = startCommand(
      base(`i=0; while [ $i -lt ${writes} ]; do echo "o$i"; echo "e$i" >&2; i=$((i+1)); done`, { onOutput: () => events++ }),
    )
    const outcome = await run.done
    expect(outcome.exitCode).toBe(0)
    const lines = readFileSync(run.artifactPath, "utf8").trimEnd().split("\n")
    const expected = (prefix: string) => Array.from({ length: writes }, (_, i) => `${prefix}${i}`)
    expect(lines.filter((l) => l.startsWith("o"))).toEqual(expected("o"))
    expect(lines.filter((l) => l.startsWith("e"))).toEqual(expected("e"))
    expect(lines).toHaveLength(2 * writes)
    // At most one batch per 10 ms of the run (runner.ts OUTPUT_BATCH_MS; the output is far below a size-full
    // batch), plus the last one; unbatched it is one per read, a couple of hundred here.
    expect(events).toBeGreaterThan(0)
    expect(events).toBeLessThanOrEqual(Math.ceil(outcome.durationMs / 10) + 2)
  })

  it("reports the signal that ended the shell", async () => {
    const run = startCommand(base("kill -9 $$"))
    expect(await run.done).toMatchObject({ exitCode: null, signal: "SIGKILL" })
  })

  it("kills the whole process group on abort, leaving no process behind", async () => {
    const controller = new AbortController()
    let streamed = ""
    const run = startCommand(
      base("sleep 300 & sleep 300 & echo started; wait", { signal: controller.signal, onOutput: (t) => (streamed += t) }),
    )
    await waitForOutput(
      () => streamed,
      (s) => s.includes("started"),
    )
    expect(psGroup(run.pid).length).toBeGreaterThanOrEqual(2)
    controller.abort()
    expect((await run.done).killedBy).toBe("cancel")
    expect(groupMembers(run.pid)).toEqual([])
    expect(psGroup(run.pid)).toEqual([])
  })

  it("escalates to SIGKILL for processes that ignore SIGTERM", async () => {
    const controller = new AbortController()
    let streamed = ""
    const run = startCommand(
      base("trap '' TERM; sleep 300 & echo started; wait", { signal: controller.signal, onOutput: (t) => (streamed += t) }),
    )
    await waitForOutput(
      () => streamed,
      (s) => s.includes("started"),
    )
    controller.abort()
    await run.done
    expect(psGroup(run.pid)).toEqual([])
  })

  it("kills the group when the hard timeout passes", async () => {
    const run = startCommand(base("sleep 300", { hardTimeoutSeconds: 0.3 }))
    expect((await run.done).killedBy).toBe("timeout")
    expect(psGroup(run.pid)).toEqual([])
  })

  it("keeps the full output in the artifact while the window is cut", async () => {
    const run = startCommand(base("seq 1 20000", { maxLines: 10 }))
    await run.done
    expect(run.window.truncated).toBe(true)
    const full = readFileSync(run.artifactPath, "utf8")
    expect(full.split("\n")).toHaveLength(20001)
    expect(full.startsWith("1\n2\n")).toBe(true)
    expect(full.endsWith("19999\n20000\n")).toBe(true)
  })

  it("writes a large output whole to the artifact while the model's window stays small", async () => {
    const run = startCommand(base("head -c 20000000 /dev/zero | tr '\\0' 'a' | fold -w 99"))
    expect((await run.done).exitCode).toBe(0)
    // fold breaks after every 99 bytes; the last partial line gets no newline.
    expect(statSync(run.artifactPath).size).toBe(20_000_000 + Math.floor(20_000_000 / 99))
    expect(run.window.totalBytes).toBe(statSync(run.artifactPath).size)
    expect(run.window.render(() => "[cut]").length).toBeLessThan(52 * 1024)
  })

  it("runs without the API key in the environment", async () => {
    const run = startCommand(
      base('echo "[$ANTHROPIC_API_KEY]"', { env: commandEnv({ ...process.env, ANTHROPIC_API_KEY: "sk-ant-secret" }) }),
    )
    await run.done
    expect(run.window.render(() => "")).toBe("[]\n")
  })

  it("does not wait for a background child that keeps the pipes open", async () => {
    const run = startCommand(base("(sleep 300 &) ; echo done"))
    expect((await run.done).exitCode).toBe(0)
    expect(run.window.render(() => "")).toBe("done\n")
    run.kill("cancel")
  })
})
