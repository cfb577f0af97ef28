import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { spawnSync } from "node:child_process"
import { runCliToEnd, spawnCli } from "../support/cli-process"
import { SERVER_ENTRY } from "../support/server-harness"
import type { FakeReply } from "../support/fake-anthropic"
import { startFakeOpenAi } from "../support/fake-openai"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { toolResultIn } from "../support/session"

const complete = (result: string): FakeReply => ({ toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result } }] })

/** A settings file in a fresh folder of the workspace (outside what the task lists). */
function settingsFile(dir: string, text: string): string {
  mkdirSync(join(dir, ".cfg"), { recursive: true })
  const file = join(dir, ".cfg", "settings.json")
  writeFileSync(file, text)
  return file
}

describe("agent-lsp run, as a newcomer meets it", () => {
  it("names the file, the unknown key and the nearest known key on stderr, once each", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([complete("ok")])
    const file = settingsFile(ws.root, JSON.stringify({ agent: { autoAprove: { write: true }, terminal: { timeoutSecond: 3 } } }))
    const { code, stderr } = await runCliToEnd(["run", "hi"], { cwd: ws.root, apiUrl: api.url, env: { AGENT_LSP_SETTINGS_FILE: file } })
    expect(code).toBe(0)
    expect(stderr).toContain(
      `agent-lsp: setting agent.autoAprove from the global settings file ${file}: unknown key, not used; did you mean agent.autoApprove?`,
    )
    expect(stderr).toContain(
      `setting agent.terminal.timeoutSecond from the global settings file ${file}: unknown key, not used; did you mean agent.terminal.timeoutSeconds?`,
    )
    expect(stderr.match(/autoAprove/g)).toHaveLength(1) // reported once
  })

  it("reports invalid JSON once, with one program-name prefix", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([complete("ok")])
    const file = settingsFile(ws.root, '{ "agent": { "model": ')
    const { code, stderr } = await runCliToEnd(["run", "hi"], { cwd: ws.root, apiUrl: api.url, env: { AGENT_LSP_SETTINGS_FILE: file } })
    expect(code).toBe(0)
    expect(stderr.match(/is not valid JSON/g)).toHaveLength(1)
    expect(stderr).toContain(`agent-lsp: ${file} is not valid JSON`)
    expect(stderr).not.toContain("agent-lsp: agent-lsp:")
  })

  it("exits 2 naming the file when AGENT_LSP_SETTINGS_FILE does not exist, before any model request", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([complete("ok")])
    const missing = join(ws.root, "no-such-settings.json")
    const { code, stderr } = await runCliToEnd(["run", "hi"], { cwd: ws.root, apiUrl: api.url, env: { AGENT_LSP_SETTINGS_FILE: missing } })
    expect(code).toBe(2)
    expect(stderr).toContain(`AGENT_LSP_SETTINGS_FILE names ${missing}, which does not exist`)
    expect(api.requests).toHaveLength(0)
  })

  it("says a failure once on stderr, with nothing about editors or resuming", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([complete("unused")])
    const { code, stderr } = await runCliToEnd(["run", "hi"], { cwd: ws.root, apiUrl: api.url, env: { ANTHROPIC_API_KEY: undefined } })
    expect(code).toBe(1)
    expect(stderr.match(/ANTHROPIC_API_KEY is not set/g)).toHaveLength(1)
    expect(stderr).not.toMatch(/restart the editor|resume the task/)
  })

  it("tells the model the policy refused a call, not the user", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      { toolCalls: [{ id: "toolu_w", name: "write_to_file", input: { path: "x.txt", content: "x" } }] },
      complete("could not write"),
    ])
    const { code } = await runCliToEnd(["run", "write x.txt"], { cwd: ws.root, apiUrl: api.url })
    expect(code).toBe(0)
    const result = JSON.stringify(toolResultIn(api.requests[1], "toolu_w").content)
    // Without a terminal a run is in dontAsk: refused at once, and the model hears why and what would allow it.
    expect(result).toContain("refused without asking: the task runs in dontAsk permission mode")
    expect(result).toContain("--auto-approve")
    expect(result).not.toContain("The user rejected")
  })

  it("runs against another server with --provider, --model, --base-url and --context-window, no settings file", async () => {
    const ws = await scopedWorkspace()
    const local = await startFakeOpenAi([{ toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "local ok" } }] }])
    onTestFinished(() => local.close())
    const { code, stdout, stderr } = await runCliToEnd(
      ["run", "--provider", "openai", "--model", "qwen-local", "--base-url", `${local.url}/v1`, "--context-window", "32768", "hi"],
      { cwd: ws.root, env: { OPENAI_API_KEY: undefined } },
    )
    expect(code, stderr).toBe(0)
    expect(stdout).toBe("local ok\n")
    expect(local.requests[0]!.body.model).toBe("qwen-local")
  })

  it("refuses an unknown --provider and a --base-url that is not a URL (exit 2)", async () => {
    const ws = await scopedWorkspace()
    const provider = await runCliToEnd(["run", "--provider", "gemini", "x"], { cwd: ws.root })
    expect(provider.code).toBe(2)
    expect(provider.stderr).toContain('unknown provider "gemini"; use anthropic or openai')
    const url = await runCliToEnd(["run", "--base-url", "localhost", "x"], { cwd: ws.root })
    expect(url.code).toBe(2)
    expect(url.stderr).toContain('"localhost" is not a URL')
  })

  it("after a killed run, shows only the new task: no old interrupted status, and --json carries the new id", async () => {
    const ws = await scopedWorkspace()
    const state = mkdtempSync(join(tmpdir(), "agent-lsp-cli-state-"))
    const env = { XDG_STATE_HOME: state }
    const slow = await scopedFake([{ text: "thinking", hangAfterEvents: 3 }])
    const killed = spawnCli(["run", "first task"], { cwd: ws.root, apiUrl: slow.url, env, detached: true })
    onTestFinished(
      () => void (killed.proc.exitCode === null && killed.proc.signalCode === null && process.kill(-killed.proc.pid!, "SIGKILL")),
    )
    const deadline = Date.now() + 15_000
    while (slow.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    expect(slow.requests.length).toBe(1)
    process.kill(-killed.proc.pid!, "SIGKILL")
    await killed.exited
    const api = await scopedFake([complete("second done")])
    const { code, stdout, stderr } = await runCliToEnd(["run", "--json", "second task"], { cwd: ws.root, apiUrl: api.url, env })
    expect(code, stderr).toBe(0)
    const lines = stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l))
    const ids = new Set(lines.filter((l) => l.type === "event").map((l) => l.taskId))
    expect(ids.size).toBe(1)
    expect(JSON.stringify(lines)).not.toContain("interrupted")
    const human = await runCliToEnd(["run", "third task"], { cwd: ws.root, apiUrl: (await scopedFake([complete("third")])).url, env })
    expect(human.stderr).not.toContain("interrupted")
  })

  it("names the current directory when it was deleted under the shell (exit 2), not a raw uv_cwd error", async () => {
    const ws = await scopedWorkspace()
    const gone = join(ws.root, "gone")
    mkdirSync(gone)
    const run = spawnSync("/bin/sh", ["-c", `cd "${gone}" && rmdir "${gone}" && exec "${process.execPath}" "${SERVER_ENTRY}" run hi`], {
      encoding: "utf8",
      env: { ...process.env, ANTHROPIC_BASE_URL: "http://127.0.0.1:9" },
    })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain(`agent-lsp run: the current directory ${gone} no longer exists`)
    expect(run.stderr).not.toContain("uv_cwd")
  })
})
