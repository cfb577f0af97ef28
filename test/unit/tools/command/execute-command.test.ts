import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { defaultSettings } from "../../../../server/src/config/schema"
import { setArtifactDir } from "../../../../server/src/terminal/artifacts"
import { validateParams } from "../../../../server/src/pipeline/params"
import { executeCommand } from "../../../../server/src/tools/execute-command"
import { readCommandOutput } from "../../../../server/src/tools/read-command-output"
import { callTool, textOf } from "../read/run-tool"

let ws: TempWorkspace
const savedKey = process.env.ANTHROPIC_API_KEY
beforeAll(async () => {
  ws = await tempWorkspace({ "src/a.txt": "hello\n", ".rooignore": "private/\n*.secret\n", "private/p.txt": "p", "x.secret": "s" })
  setArtifactDir(ws.path(".artifacts"))
  process.env.ANTHROPIC_API_KEY = "sk-ant-test-key"
})
afterAll(async () => {
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY
  else process.env.ANTHROPIC_API_KEY = savedKey
  setArtifactDir(undefined)
  await ws.cleanup()
})

const terminal = (t: Partial<ReturnType<typeof defaultSettings>["terminal"]>) => ({ terminal: { ...defaultSettings().terminal, ...t } })

/** Host pids of the live `sleep M` and `sleep M+1` processes. */
function hostSleeps(m: number): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" })
  return out
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter((x): x is RegExpExecArray => x !== null && !x[2]!.startsWith("Z") && (x[3] === `sleep ${m}` || x[3] === `sleep ${m + 1}`))
    .map((x) => Number(x[1]))
}

function psGroup(pgid: number): string[] {
  try {
    const out = execFileSync("ps", ["-o", "pid=,stat=", "-g", String(pgid)], { encoding: "utf8" })
    return out
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !/\sZ/.test(l))
  } catch {
    return []
  }
}

async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((r) => setTimeout(r, 10))
}

describe("execute_command", () => {
  it("refuses a command holding a NUL byte at validation, with an error that says what to do", () => {
    const checked = validateParams(executeCommand, { command: "touch nul-ran\0; echo x" })
    expect(checked.ok).toBe(false)
    expect(checked.ok ? "" : checked.message).toMatch(/command: holds a NUL byte.*printf/)
  })

  it("runs in the workspace and returns the exit code and output, with a command preview", async () => {
    const r = await callTool(executeCommand, { command: "cat a.txt; exit 2", cwd: "src" }, makeToolContext(ws.root))
    expect(r.isError).toBe(false)
    expect(textOf(r)).toBe("Command finished with exit code 2 (in src).\n\nOutput:\nhello")
    expect(r.prepared?.preview.subject).toEqual({
      kind: "command",
      command: "cat a.txt; exit 2",
      cwd: "src",
      absoluteCwd: ws.path("src"),
      writePaths: [],
      sandbox: { available: true },
      // The line is checked in the language of the shell that runs it (bash by default).
      dialect: "bash",
    })
    expect(r.prepared?.preview.command).toBe("cat a.txt; exit 2")
  })

  it("streams output as commandOutput updates tagged with the call id", async () => {
    const ctx = makeToolContext(ws.root, { callId: "call_42" })
    await callTool(executeCommand, { command: "echo one; echo two" }, ctx)
    const chunks = ctx.updates.filter((u) => u.kind === "commandOutput")
    expect(chunks.every((u) => u.kind === "commandOutput" && u.callId === "call_42")).toBe(true)
    expect(chunks.map((u) => (u.kind === "commandOutput" ? u.chunk : "")).join("")).toBe("one\ntwo\n")
  })

  it("hides the API key from the command", async () => {
    const r = await callTool(executeCommand, { command: 'echo "key=[$ANTHROPIC_API_KEY]"' }, makeToolContext(ws.root))
    expect(textOf(r)).toContain("key=[]")
  })

  it("cuts long output to head and tail and keeps the whole for read_command_output", async () => {
    const ctx = makeToolContext(ws.root, { settings: terminal({ outputLines: 10 }) })
    const text = textOf(await callTool(executeCommand, { command: "seq 1 1000" }, ctx))
    const id = /artifact_id "(cmd-[^"]+)"/.exec(text)![1]!
    expect(text).toContain(
      "Output:\n1\n2\n\n[... 990 lines (3.8 KB) not shown. The full output (1000 lines, 3.8 KB) is kept: read_command_output",
    )
    expect(text.endsWith("993\n994\n995\n996\n997\n998\n999\n1000")).toBe(true)

    const found = textOf(await callTool(readCommandOutput, { artifact_id: id, search: "^99[0-9]$" }, ctx))
    expect(found).toContain(`10 lines match /^99[0-9]$/ in ${id}.`)
    expect(found).toContain("995 | 995")
    const page = textOf(await callTool(readCommandOutput, { artifact_id: id, offset: 0, limit: 20 }, ctx))
    // 20 bytes end inside line "10": the window stops at the last whole line.
    expect(page).toBe(
      `Bytes 0-18 of 3893 (3.8 KB) of ${id}. To read on, call read_command_output with offset 18.\n\n1\n2\n3\n4\n5\n6\n7\n8\n9\n`,
    )
  })

  it("searches output with RE2: a catastrophic pattern answers at once, lookaround is refused with the reason, a non-regex matches literally", async () => {
    const ctx = makeToolContext(ws.root)
    await callTool(executeCommand, { command: `printf '%s!\\n' ${"a".repeat(40)}; echo 'x(y'` }, ctx)
    const id = readdirSync(ws.path(".artifacts")).find((name) => readFileSync(ws.path(`.artifacts/${name}`), "utf8").includes("x(y"))!
    // (a+)+$ against "aaaa…a!" backtracks for minutes in a JavaScript RegExp.
    expect(textOf(await callTool(readCommandOutput, { artifact_id: id, search: "^(a+)+$" }, ctx))).toBe(
      `No lines match /^(a+)+$/ in ${id}.`,
    )
    const refused = await callTool(readCommandOutput, { artifact_id: id, search: "a(?=!)" }, ctx)
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toMatch(
      /^The search pattern \/a\(\?=!\)\/ uses syntax the RE2 engine cannot run .*Lookahead, lookbehind and backreferences are not supported/,
    )
    expect(textOf(await callTool(readCommandOutput, { artifact_id: id, search: "x(y" }, ctx))).toContain("2 | x(y")
  })

  it("returns what was printed when the model's timeout passes and reports the end later", async () => {
    const ctx = makeToolContext(ws.root, { taskId: "task-bg" })
    const r = await callTool(
      executeCommand,
      { command: "echo started; while [ ! -f release ]; do sleep 0.02; done; echo finished", timeout: 0.5 },
      ctx,
    )
    const text = textOf(r)
    expect(text).toMatch(
      /^The command is still running after 0\.5 s; it keeps running in the background \(in \.\)\. Output so far:\n\nstarted\n/,
    )
    const id = /artifact_id "(cmd-[^"]+)"/.exec(text)![1]!
    expect(textOf(await callTool(readCommandOutput, { artifact_id: id }, ctx))).toContain("The command is still running.")
    execFileSync("touch", [ws.path("release")])
    await until(() => readFileSync(ws.path(`.artifacts/${id}`), "utf8").includes("finished"))
    let reports: string[] = []
    await until(() => (reports = ctx.background.takeReports("task-bg")).length > 0)
    expect(reports[0]).toBe(
      `The command \`echo started; while [ ! -f release ]; do sleep 0.02; done; echo finished\` that was left running in the background has ended: exit code 0. Its output is in artifact_id "${id}" (read_command_output).`,
    )
    expect(textOf(await callTool(readCommandOutput, { artifact_id: id }, ctx))).toContain("The command has ended: exit code 0.")
  })

  it("kills the process group when agent.terminal.timeoutSeconds passes", async () => {
    const ctx = makeToolContext(ws.root, { settings: terminal({ timeoutSeconds: 0.3 }) })
    // Unique durations mark the sleeps for the host's ps (the sandbox's PID namespace hides host pids from $$).
    const m = 3000 + Math.floor(Math.random() * 900)
    const r = await callTool(executeCommand, { command: `sleep ${m} & sleep ${m + 1}; wait` }, ctx)
    expect(r.isError).toBe(true)
    expect(textOf(r)).toMatch(/^Command killed when agent\.terminal\.timeoutSeconds passed after 0\.3 s/)
    expect(hostSleeps(m)).toEqual([])
  })

  it("kills the process group when the task is cancelled, leaving no process", async () => {
    const controller = new AbortController()
    const ctx = makeToolContext(ws.root, { signal: controller.signal })
    const m = 3000 + Math.floor(Math.random() * 900)
    const pending = callTool(executeCommand, { command: `sleep ${m} & sleep ${m + 1} & echo up; wait` }, ctx)
    await until(() => ctx.updates.some((u) => u.kind === "commandOutput" && u.chunk.includes("up")))
    await until(() => hostSleeps(m).length === 2)
    const pgid = Number(execFileSync("ps", ["-o", "pgid=", "-p", String(hostSleeps(m)[0])], { encoding: "utf8" }).trim())
    expect(psGroup(pgid).length).toBeGreaterThan(0)
    controller.abort()
    const r = await pending
    expect(r.isError).toBe(true)
    expect(textOf(r)).toContain("killed because the task was cancelled")
    expect(psGroup(pgid)).toEqual([])
    expect(hostSleeps(m)).toEqual([])
  })

  it("refuses a working directory outside the workspace or blocked by .rooignore", async () => {
    const ctx = makeToolContext(ws.root)
    const outside = await callTool(executeCommand, { command: "ls", cwd: ".." }, ctx)
    expect(textOf(outside)).toContain("Commands run only inside the workspace")
    expect(JSON.parse(textOf(await callTool(executeCommand, { command: "ls", cwd: "private" }, ctx))).path).toBe("private")
    expect(textOf(await callTool(executeCommand, { command: "ls", cwd: "nope" }, ctx))).toBe(
      "The working directory nope does not exist or is not a directory. Use list_files to find the right one.",
    )
  })

  it("refuses file-reading commands on .rooignore'd files", async () => {
    const r = await callTool(executeCommand, { command: "grep -n s x.secret" }, makeToolContext(ws.root))
    expect(r.isError).toBe(true)
    expect(JSON.parse(textOf(r))).toMatchObject({ message: "Access blocked by .rooignore", path: "x.secret" })
  })

  it("says (no output) for a silent command", async () => {
    expect(textOf(await callTool(executeCommand, { command: "true" }, makeToolContext(ws.root)))).toBe(
      "Command finished with exit code 0 (in .).\n\nOutput:\n(no output)",
    )
  })
})

describe("read_command_output", () => {
  it("refuses an unknown or malformed artifact id", async () => {
    for (const id of ["cmd-0-000000.txt", "../../etc/passwd"]) {
      const r = await callTool(readCommandOutput, { artifact_id: id }, makeToolContext(ws.root))
      expect(r.isError).toBe(true)
      expect(textOf(r)).toContain(`No command output with artifact_id "${id}"`)
    }
    expect(existsSync(ws.path(".artifacts"))).toBe(true)
  })
})
