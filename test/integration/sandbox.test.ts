import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { spawnCli } from "../support/cli-process"
import type { RecordedRequest } from "../support/fake-anthropic"
import { scopedFake, scopedWorkspace } from "../support/scoped"
import { startSession } from "../support/session"

/**
 * The OS sandbox through the built server: commands run in bubblewrap, the policy fails closed without it,
 * and a headless run ended by a signal leaves no command behind.
 */

function toolResultText(request: RecordedRequest | undefined, id: string): string {
  const block = request?.body.messages.at(-1).content.find((b: any) => b.type === "tool_result" && b.tool_use_id === id)
  if (!block) throw new Error(`no tool_result for ${id}`)
  return typeof block.content === "string" ? block.content : block.content.map((b: any) => b.text ?? "").join("\n")
}

/** Pids of live host processes whose command line is exactly `args`. */
function processesRunning(args: string): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" })
  return out
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && !m[2]!.startsWith("Z") && m[3] === args)
    .map((m) => Number(m[1]))
}

function tempDir(prefix: string, parent = "/var/tmp"): string {
  const dir = realpathSync(mkdtempSync(join(parent, prefix)))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

describe("the OS sandbox through the built server", () => {
  it("runs a command unasked under autoApprove.sandboxedCommands, and the sandbox holds: no secret read, no write outside, no network", async () => {
    const ws = await scopedWorkspace({ ".rooignore": "private.txt\n", "private.txt": "ROOIGNORED-CONTENT\n" })
    const home = tempDir("agent-lsp-home-")
    mkdirSync(join(home, ".ssh"))
    writeFileSync(join(home, ".ssh", "id_rsa"), "HOME-SSH-KEY\n")
    const outside = tempDir("agent-lsp-outside-")
    const web = createServer((_req, res) => res.end("LOOPBACK-BODY"))
    await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve))
    onTestFinished(() => void web.close())
    const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/`
    // The escape attempts sit in a script the repository ships: the static reading sees one program it cannot
    // look into (./steal.sh), which autoApprove.sandboxedCommands runs unasked; only the kernel stands between.
    writeFileSync(
      join(ws.root, "steal.sh"),
      `#!/bin/bash\ncat ~/.ssh/id_rsa priv*\ncp private.txt ${outside}/stolen\ncurl -s -m 5 ${url}\necho END\n`,
      { mode: 0o755 },
    )
    const command = "./steal.sh"
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_cmd", name: "execute_command", input: { command } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root, env: { HOME: home }, initializationOptions: { agent: { autoApprove: { sandboxedCommands: true } } } },
    )
    // The user rejects the host the command asks for.
    server.handlers.requestApproval = (params: any) => ({ optionId: params.options.find((o: any) => o.kind === "reject_once")?.optionId })
    const { taskId } = await server.request("agent/newTask", { text: "run it" })
    await server.waitForStatus(taskId, "completed")
    // The command itself ran unasked; only its network host was asked about.
    const asked = server.serverRequests.filter((r) => r.method === "agent/requestApproval").map((r) => r.params.title)
    expect(asked).toEqual([`Allow network access to 127.0.0.1:${new URL(url).port}?`])
    const text = toolResultText(api.requests[1], "toolu_cmd")
    expect(text).toContain("END")
    expect(text).not.toContain("HOME-SSH-KEY")
    expect(text).not.toContain("ROOIGNORED-CONTENT")
    expect(text).not.toContain("LOOPBACK-BODY")
    expect(existsSync(join(outside, "stolen"))).toBe(false)
  })

  it("asks for the network host a command wants, and the user's approval lets it through", async () => {
    const ws = await scopedWorkspace()
    const web = createServer((_req, res) => res.end("LOOPBACK-BODY"))
    await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve))
    onTestFinished(() => void web.close())
    const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/`
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_cmd", name: "execute_command", input: { command: `curl -s -m 20 ${url}` } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root, initializationOptions: { agent: { autoApprove: { sandboxedCommands: true } } } },
    )
    const { taskId } = await server.request("agent/newTask", { text: "fetch it" })
    await server.waitForStatus(taskId, "completed")
    const asked = server.serverRequests.filter((r) => r.method === "agent/requestApproval").map((r) => r.params.title)
    expect(asked).toEqual([`Allow network access to 127.0.0.1:${new URL(url).port}?`])
    expect(toolResultText(api.requests[1], "toolu_cmd")).toContain("LOOPBACK-BODY")
  })

  it("fails closed without bwrap: an allow-listed command asks, the warning with the fix comes once, and the rejected command does not run", async () => {
    const ws = await scopedWorkspace()
    const { server, api } = await startSession(
      [
        { toolCalls: [{ id: "toolu_a", name: "execute_command", input: { command: "touch ran-a" } }] },
        { toolCalls: [{ id: "toolu_b", name: "execute_command", input: { command: "touch ran-b" } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ],
      {
        workspace: ws.root,
        env: { AGENT_LSP_BWRAP: "/nonexistent/bwrap" },
        initializationOptions: { agent: { terminal: { allow: ["touch"] }, autoApprove: { sandboxedCommands: true } } },
      },
    )
    server.handlers.requestApproval = (params: any) => ({ optionId: params.options.find((o: any) => o.kind === "reject_once")?.optionId })
    const { taskId } = await server.request("agent/newTask", { text: "touch" })
    await server.waitForStatus(taskId, "completed")
    const asked = server.serverRequests.filter((r) => r.method === "agent/requestApproval")
    expect(asked).toHaveLength(2)
    expect(existsSync(ws.path("ran-a"))).toBe(false)
    expect(existsSync(ws.path("ran-b"))).toBe(false)
    const warnings = server.updatesOf(taskId).filter((u) => u.kind === "error" && /sandbox is unavailable/.test((u as any).message))
    expect(warnings).toHaveLength(1)
    expect((warnings[0] as any).message).toContain("apt-get install bubblewrap")
    expect(api.requests).toHaveLength(3)
  })

  for (const [signal, mode] of [
    ["SIGTERM", "required"],
    ["SIGHUP", "required"],
    ["SIGTERM", "off"],
    ["SIGHUP", "off"],
  ] as const) {
    it(`ends a headless run's running command when the server gets ${signal} (sandbox ${mode})`, async () => {
      const ws = await scopedWorkspace()
      const config = tempDir("agent-lsp-config-")
      mkdirSync(join(config, "agent-lsp"))
      writeFileSync(join(config, "agent-lsp", "settings.json"), JSON.stringify({ agent: { sandbox: { mode } } }))
      const seconds = String(4000 + Math.floor(Math.random() * 900))
      const api = await scopedFake([
        { toolCalls: [{ id: "toolu_cmd", name: "execute_command", input: { command: `sleep ${seconds}` } }] },
        { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
      ])
      const cli = spawnCli(["run", "--auto-approve", "command", "sleep"], {
        cwd: ws.root,
        apiUrl: api.url,
        env: { XDG_CONFIG_HOME: config },
      })
      onTestFinished(() => {
        for (const pid of processesRunning(`sleep ${seconds}`)) process.kill(pid, "SIGKILL")
        cli.proc.kill("SIGKILL")
      })
      const deadline = Date.now() + 20_000
      while (processesRunning(`sleep ${seconds}`).length === 0) {
        if (Date.now() > deadline) throw new Error(`the command never started; stderr: ${cli.stderr()}`)
        await new Promise((r) => setTimeout(r, 50))
      }
      cli.proc.kill(signal)
      await cli.exited
      const gone = Date.now() + 5000
      while (processesRunning(`sleep ${seconds}`).length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 50))
      expect(processesRunning(`sleep ${seconds}`)).toEqual([])
    })
  }
})
