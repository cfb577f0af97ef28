import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { startAcpClient } from "../support/acp-client"
import { spawnCli } from "../support/cli-process"
import type { FakeReply } from "../support/fake-anthropic"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { startSession, toolResultIn, toolResultText } from "../support/session"

const STORED_KEY = "sk-ant-stored-login-key-0123456789abcdef"
const complete = (result: string): FakeReply => ({ toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result } }] })

function newHome(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-login-home-")))
}

/** Runs `agent-lsp login` with the answers piped to stdin; the key comes from no environment. */
async function login(home: string, cwd: string, answers: string): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const cli = spawnCli(["login"], { cwd, stdin: answers, env: { XDG_CONFIG_HOME: join(home, "config"), ANTHROPIC_API_KEY: undefined } })
  const code = await cli.exited
  return { code, stdout: cli.stdout(), stderr: cli.stderr() }
}

function allFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).map((name) => join(dir, name))
}

describe("agent-lsp login and logout", () => {
  it("--help lists login and logout", async () => {
    const ws = await scopedWorkspace()
    const cli = spawnCli(["--help"], { cwd: ws.root })
    expect(await cli.exited).toBe(0)
    expect(cli.stdout()).toMatch(/agent-lsp login /)
    expect(cli.stdout()).toMatch(/agent-lsp logout /)
  })

  it("stores the provider and key in the global settings folder with mode 0600, nothing in the project; logout removes it", async () => {
    const ws = await scopedWorkspace()
    const home = newHome()
    const result = await login(home, ws.root, `1\n${STORED_KEY}\n`)
    expect(result.code).toBe(0)
    const file = join(home, "config", "agent-lsp", "credentials.json")
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ provider: "anthropic", apiKey: STORED_KEY })
    expect(result.stdout).not.toContain(STORED_KEY)
    for (const path of allFiles(ws.root)) if (statSync(path).isFile()) expect(readFileSync(path, "utf8")).not.toContain(STORED_KEY)

    const out = spawnCli(["logout"], { cwd: ws.root, env: { XDG_CONFIG_HOME: join(home, "config") } })
    expect(await out.exited).toBe(0)
    expect(existsSync(file)).toBe(false)
  })

  it("a local server's base URL is stored with the openai provider; a bad URL or answer stores nothing", async () => {
    const ws = await scopedWorkspace()
    const home = newHome()
    expect((await login(home, ws.root, "3\nnot a url\n")).code).toBe(2)
    expect((await login(home, ws.root, "7\n")).code).toBe(2)
    expect((await login(home, ws.root, "1\n")).code).not.toBe(0)
    const file = join(home, "config", "agent-lsp", "credentials.json")
    expect(existsSync(file)).toBe(false)
    expect((await login(home, ws.root, "3\nhttp://127.0.0.1:11434/v1\n\n")).code).toBe(0)
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ provider: "openai", baseUrl: "http://127.0.0.1:11434/v1" })
  })

  it("ACP and the CLI use the stored key when the environment has none; it reaches no command, log or task file", async () => {
    const ws = await scopedWorkspace()
    const home = newHome()
    expect((await login(home, ws.root, `anthropic\n${STORED_KEY}\n`)).code).toBe(0)
    const api = await scopedFake([
      {
        toolCalls: [
          { id: "toolu_env", name: "execute_command", input: { command: "env; cat /proc/$PPID/environ 2>/dev/null | tr '\\0' '\\n'" } },
        ],
      },
      complete("done"),
      complete("cli done"),
    ])
    const { client } = await startAcpClient({ apiUrl: api.url, stateHome: home, env: { ANTHROPIC_API_KEY: undefined } })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    expect((await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "show env" }] })).stopReason).toBe(
      "end_turn",
    )
    const sent = api.requests[0]!.headers
    expect(`${sent["x-api-key"] ?? ""} ${sent.authorization ?? ""}`).toContain(STORED_KEY)
    const output = toolResultText(toolResultIn(api.requests[1], "toolu_env"))
    expect(output).toContain("PATH=")
    expect(output).not.toContain(STORED_KEY)
    for (const path of allFiles(join(home, "state")))
      if (statSync(path).isFile()) expect(readFileSync(path, "utf8")).not.toContain(STORED_KEY)
    expect(client.stderr).not.toContain(STORED_KEY)

    const cli = spawnCli(["run", "say done"], {
      cwd: ws.root,
      apiUrl: api.url,
      env: { XDG_CONFIG_HOME: join(home, "config"), ANTHROPIC_API_KEY: undefined },
    })
    expect(await cli.exited).toBe(0)
    const cliSent = api.requests[2]!.headers
    expect(`${cliSent["x-api-key"] ?? ""} ${cliSent.authorization ?? ""}`).toContain(STORED_KEY)
  })

  it("the LSP server uses the stored key when the environment has none", async () => {
    const ws = await scopedWorkspace()
    const home = newHome()
    expect((await login(home, ws.root, `1\n${STORED_KEY}\n`)).code).toBe(0)
    const { server, api } = await startSession([complete("lsp done")], {
      workspace: ws.root,
      env: { XDG_CONFIG_HOME: join(home, "config"), ANTHROPIC_API_KEY: undefined },
    })
    const { taskId } = await server.request("agent/newTask", { text: "hi" })
    await server.waitForStatus(taskId, "completed", 30_000)
    const sent = api.requests[0]!.headers
    expect(`${sent["x-api-key"] ?? ""} ${sent.authorization ?? ""}`).toContain(STORED_KEY)
    expect(server.stderr).not.toContain(STORED_KEY)
  })

  it("without any key, ACP session/new answers auth_required naming agent-lsp login", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([])
    const { client } = await startAcpClient({ apiUrl: api.url, env: { ANTHROPIC_API_KEY: undefined } })
    await expect(client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })).rejects.toThrow(/agent-lsp login/)
    await expect(client.agent.request("authenticate", { methodId: "agent-lsp-login" })).rejects.toThrow(/agent-lsp login/)
  })
})
