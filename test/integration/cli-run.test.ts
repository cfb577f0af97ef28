import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it, onTestFinished } from "vitest"
import { runCliToEnd, spawnCli } from "../support/cli-process"
import type { FakeReply } from "../support/fake-anthropic"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { toolResultIn } from "../support/session"

const complete = (result: string): FakeReply => ({ toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result } }] })

describe("agent-lsp run (headless) as a child process", () => {
  it("writes with --auto-approve write, streams progress to stderr and prints only the result on stdout (exit 0)", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      {
        text: "Creating the file.",
        toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "notes.txt", content: "hello\n" } }],
      },
      complete("Created notes.txt."),
    ])
    const { code, stdout, stderr } = await runCliToEnd(["run", "--auto-approve", "write", "create notes.txt"], {
      cwd: ws.root,
      apiUrl: api.url,
    })
    expect(code).toBe(0)
    expect(stdout).toBe("Created notes.txt.\n")
    expect(stderr).toContain("Creating the file.")
    expect(stderr).toMatch(/write_to_file.*notes\.txt/)
    expect(readFileSync(ws.path("notes.txt"), "utf8")).toBe("hello\n")
    expect(api.requests[0]!.body.messages[0].content.map((b: any) => b.text ?? "").join("")).toContain("create notes.txt")
  })

  it("takes the task from stdin when no argument is given", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([complete("done from stdin")])
    const { code, stdout } = await runCliToEnd(["run"], { cwd: ws.root, apiUrl: api.url, stdin: "say hello\n" })
    expect(code).toBe(0)
    expect(stdout).toBe("done from stdin\n")
    expect(JSON.stringify(api.requests[0]!.body.messages[0])).toContain("say hello")
  })

  it("--json writes one parseable JSON object per line on stdout, ending with the result", async () => {
    const ws = await scopedWorkspace({ "a.txt": "alpha\n" })
    const api = await scopedFake([{ toolCalls: [{ id: "toolu_r", name: "read_file", input: { path: "a.txt" } }] }, complete("read it")])
    const { code, stdout } = await runCliToEnd(["run", "--json", "read a.txt"], { cwd: ws.root, apiUrl: api.url })
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split("\n")
    const parsed = lines.map((line) => JSON.parse(line))
    expect(parsed.slice(0, -1).every((p) => p.type === "event" && typeof p.taskId === "string" && typeof p.event.kind === "string")).toBe(
      true,
    )
    expect(parsed.at(-1)).toEqual({ type: "result", status: "completed", exitCode: 0, result: "read it" })
    expect(parsed.map((p) => p.event)).toContainEqual(
      expect.objectContaining({ kind: "toolResult", callId: "toolu_r", tool: "read_file", isError: false }),
    )
  })

  it("refuses an approval --auto-approve does not grant, without waiting, and tells the model", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      { toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "x.txt", content: "x" } }] },
      complete("could not write"),
    ])
    const started = Date.now()
    const { code, stdout } = await runCliToEnd(["run", "write x.txt"], { cwd: ws.root, apiUrl: api.url })
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(code).toBe(0)
    expect(stdout).toBe("could not write\n")
    expect(existsSync(ws.path("x.txt"))).toBe(false)
    const result = toolResultIn(api.requests[1], "toolu_w")
    // Standard input is not a terminal here, so the permission mode is dontAsk (docs/permission-modes.md).
    expect(JSON.stringify(result.content)).toContain("dontAsk permission mode, where nobody is asked")
    expect(JSON.stringify(result.content)).toContain("what --auto-approve grants")
  })

  it("exits 1 when refusals keep coming (the model insists on what it cannot have)", async () => {
    const ws = await scopedWorkspace()
    const write = (i: number): FakeReply => ({
      toolCalls: [{ id: `toolu_w${i}`, name: "write_to_file", input: { path: `x${i}.txt`, content: "x" } }],
    })
    const api = await scopedFake([write(1), write(2), write(3), write(4), write(5), write(6), write(7)])
    const { code, stderr } = await runCliToEnd(["run", "write files"], { cwd: ws.root, apiUrl: api.url })
    expect(code).toBe(1)
    expect(stderr).toMatch(/needed an approval that --auto-approve does not grant/)
  })

  it("exits 1 when the model API fails", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      { kind: "error", status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "bad request from fake" } } },
    ])
    const { code, stdout, stderr } = await runCliToEnd(["run", "anything"], { cwd: ws.root, apiUrl: api.url })
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toMatch(/failed/)
  })

  it("exits 2 on usage errors: unknown flag, no task, bad --auto-approve kind, unknown mode, unknown command", async () => {
    const ws = await scopedWorkspace()
    const unknownFlag = await runCliToEnd(["run", "--frobnicate", "x"], { cwd: ws.root })
    expect(unknownFlag.code).toBe(2)
    expect(unknownFlag.stderr).toContain('unknown option "--frobnicate"')
    expect((await runCliToEnd(["run"], { cwd: ws.root, stdin: "" })).code).toBe(2)
    const badKind = await runCliToEnd(["run", "--auto-approve", "read,everything", "x"], { cwd: ws.root })
    expect(badKind.code).toBe(2)
    expect(badKind.stderr).toContain('unknown kind "everything"')
    const badMode = await runCliToEnd(["run", "--mode", "no-such-mode", "x"], { cwd: ws.root })
    expect(badMode.code).toBe(2)
    expect(badMode.stderr).toContain("no-such-mode")
    expect((await runCliToEnd(["bogus"], { cwd: ws.root })).code).toBe(2)
  })

  it("documents itself: run --help and --help exit 0 and name every flag and exit status", async () => {
    const ws = await scopedWorkspace()
    const runHelp = await runCliToEnd(["run", "--help"], { cwd: ws.root })
    expect(runHelp.code).toBe(0)
    for (const word of ["--mode", "--auto-approve", "--json", "--model", "130", "read, write, command, mcp"])
      expect(runHelp.stdout).toContain(word)
    const help = await runCliToEnd(["--help"], { cwd: ws.root })
    expect(help.code).toBe(0)
    for (const word of ["--stdio", "--acp", "run", "--version"]) expect(help.stdout).toContain(word)
  })

  it("SIGINT cancels the task, exits 130 and leaves no process behind", async () => {
    const ws = await scopedWorkspace()
    const marker = "31.4159"
    const api = await scopedFake([{ toolCalls: [{ id: "toolu_sleep", name: "execute_command", input: { command: `sleep ${marker}` } }] }])
    const cli = spawnCli(["run", "--auto-approve", "command", "sleep a while"], { cwd: ws.root, apiUrl: api.url, detached: true })
    onTestFinished(() => void (cli.proc.exitCode === null && process.kill(-cli.proc.pid!, "SIGKILL")))
    const sleepers = () =>
      execFileSync("ps", ["-eo", "pid,pgid,args"], { encoding: "utf8" })
        .split("\n")
        .filter((l) => l.includes(`sleep ${marker}`) && !l.includes("ps -eo"))
    const deadline = Date.now() + 15_000
    while (sleepers().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    expect(sleepers().length).toBeGreaterThan(0)
    cli.proc.kill("SIGINT")
    expect(await cli.exited).toBe(130)
    // Live members of the run's process group (zombies are dead already: an orphan git the run started lingers
    // in ps until init reaps it).
    const group = () =>
      execFileSync("ps", ["-eo", "pgid=,stat="], { encoding: "utf8" })
        .split("\n")
        .map((l) => l.trim().split(/\s+/))
        .filter(([pgid, stat]) => pgid === String(cli.proc.pid) && !stat?.startsWith("Z"))
    // The sandbox's processes end with the run, just after (on a loaded machine later than 300 ms); a sleep left
    // behind would live 31 s, past this bound.
    for (const until = Date.now() + 10_000; (sleepers().length > 0 || group().length > 0) && Date.now() < until; )
      await new Promise((r) => setTimeout(r, 100))
    expect(sleepers()).toEqual([])
    expect(group()).toEqual([])
  })
})
