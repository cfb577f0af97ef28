import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process"
import { mkdtempSync, realpathSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Readable, Writable } from "node:stream"
import * as acp from "@agentclientprotocol/sdk"
import { onTestFinished } from "vitest"
import { ClientTerminals } from "./acp-terminals"
import { childEnv } from "./scoped"
import { SERVER_ENTRY } from "./server-harness"

/** How the test client answers session/request_permission: an option kind, or "cancelled". */
export type PermissionChoice = acp.PermissionOptionKind | "cancelled"

export interface AcpClientOptions {
  apiUrl: string
  /** Declared fs capabilities; the client then serves reads from `files` (its "buffers") and records writes. */
  fs?: boolean
  /** Declared terminal capability; the client then runs terminal/* with real processes (ClientTerminals). */
  terminal?: boolean
  /** State home to reuse (session/load after a restart); a fresh one by default. */
  stateHome?: string
  /** Declared form elicitation; the client then answers elicitation/create with `elicitation` (see below). */
  elicitation?: boolean
  /** Environment changes for the server (undefined removes a variable, e.g. the API key). */
  env?: Record<string, string | undefined>
}

/**
 * An ACP client written with the SDK's acp.client() over the built server's stdio (`agent-lsp --acp`):
 * records every request and notification from the agent, answers permissions by `permission`, and, when
 * it declares fs, serves `fs/read_text_file` from `buffers` (falling back to nothing: a missing file) and
 * keeps `fs/write_text_file` contents in `buffers` without touching the disk.
 */
export class AcpTestClient {
  readonly requests: { method: string; params: any }[] = []
  readonly updates: acp.SessionNotification[] = []
  readonly buffers = new Map<string, string>()
  readonly terminals = new ClientTerminals()
  /** Everything the agent wrote on stdout, raw (to check that it is nothing but protocol messages). */
  rawStdout = ""
  stderr = ""
  permission: PermissionChoice = "allow_once"
  /** How elicitation/create is answered (a client that declared elicitation). */
  elicitation: (params: acp.CreateElicitationRequest) => acp.CreateElicitationResponse = () => ({ action: "decline" })
  readonly connection: acp.ClientConnection
  readonly stateHome: string

  constructor(
    readonly proc: ChildProcessWithoutNullStreams,
    stateHome: string,
  ) {
    this.stateHome = stateHome
    proc.stdout.on("data", (d) => (this.rawStdout += d.toString()))
    proc.stderr.on("data", (d) => (this.stderr += d.toString()))
    const app = acp
      .client({ name: "agent-lsp-acp-test" })
      .onRequest("session/request_permission", ({ params }) => {
        this.requests.push({ method: "session/request_permission", params })
        if (this.permission === "cancelled") return { outcome: { outcome: "cancelled" as const } }
        const option = params.options.find((o) => o.kind === this.permission)
        return option
          ? { outcome: { outcome: "selected" as const, optionId: option.optionId } }
          : { outcome: { outcome: "cancelled" as const } }
      })
      .onRequest("fs/read_text_file", ({ params }) => {
        this.requests.push({ method: "fs/read_text_file", params })
        const text = this.buffers.get(params.path)
        if (text === undefined) throw acp.RequestError.resourceNotFound(params.path)
        return { content: text }
      })
      .onRequest("fs/write_text_file", ({ params }) => {
        this.requests.push({ method: "fs/write_text_file", params })
        this.buffers.set(params.path, params.content)
        return {}
      })
      .onRequest("terminal/create", ({ params }) => this.record("terminal/create", params, () => this.terminals.create(params)))
      .onRequest("terminal/output", ({ params }) => this.record("terminal/output", params, () => this.terminals.output(params.terminalId)))
      .onRequest("terminal/wait_for_exit", ({ params }) =>
        this.record("terminal/wait_for_exit", params, () => this.terminals.waitForExit(params.terminalId)),
      )
      .onRequest("terminal/kill", ({ params }) => this.record("terminal/kill", params, () => this.terminals.kill(params.terminalId)))
      .onRequest("terminal/release", ({ params }) =>
        this.record("terminal/release", params, () => this.terminals.release(params.terminalId)),
      )
      .onRequest("elicitation/create", ({ params }) => this.record("elicitation/create", params, () => this.elicitation(params)))
      .onNotification("session/update", ({ params }) => void this.updates.push(params))
    const stream = acp.ndJsonStream(
      Writable.toWeb(proc.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(proc.stdout) as ReadableStream<Uint8Array>,
    )
    this.connection = app.connect(stream)
  }

  private record<T>(method: string, params: unknown, answer: () => T): T {
    this.requests.push({ method, params })
    return answer()
  }

  get agent(): acp.ClientContext {
    return this.connection.agent
  }

  updatesOf(sessionId: string, kind?: string): any[] {
    return this.updates.filter((n) => n.sessionId === sessionId && (!kind || n.update.sessionUpdate === kind)).map((n) => n.update)
  }

  /**
   * Waits for an update (the SDK dispatches notifications asynchronously, so one written just before a
   * response may reach its handler just after the response resolved).
   */
  async waitForUpdate(sessionId: string, check: (update: any) => boolean, timeoutMs = 5000): Promise<any> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.updatesOf(sessionId).find(check)
      if (found) return found
      if (Date.now() > deadline)
        throw new Error(
          `no matching session/update within ${timeoutMs} ms; got ${JSON.stringify(this.updatesOf(sessionId).map((u) => u.sessionUpdate))}`,
        )
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  requestsOf(prefix: string): { method: string; params: any }[] {
    return this.requests.filter((r) => r.method.startsWith(prefix))
  }

  async close(): Promise<void> {
    this.terminals.dispose()
    this.connection.close()
    this.proc.stdin.end()
    const exited = new Promise((resolve) => (this.proc.exitCode !== null ? resolve(undefined) : this.proc.on("exit", resolve)))
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
    if (this.proc.exitCode === null) this.proc.kill("SIGKILL")
  }
}

/** Spawns `agent-lsp --acp`, initializes (declaring fs or nothing), and closes it when the test ends. */
export async function startAcpClient(options: AcpClientOptions): Promise<{ client: AcpTestClient; init: acp.InitializeResponse }> {
  const stateHome = options.stateHome ?? realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-acp-home-")))
  const env = childEnv(stateHome, options.apiUrl, options.env)
  const proc = spawn(process.execPath, [SERVER_ENTRY, "--acp"], { env, stdio: "pipe" })
  const client = new AcpTestClient(proc, stateHome)
  onTestFinished(() => client.close())
  const init = await client.agent.request("initialize", {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {
      ...(options.fs ? { fs: { readTextFile: true, writeTextFile: true } } : {}),
      ...(options.terminal ? { terminal: true } : {}),
      ...(options.elicitation ? { elicitation: { form: {} } } : {}),
    },
  })
  return { client, init }
}
