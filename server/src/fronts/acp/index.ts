import { Readable, Writable } from "node:stream"
import * as acp from "@agentclientprotocol/sdk"
import { defaultStateDir } from "../../config/paths"
import type { LogSink } from "../../core/logger"
import { SettingsManager } from "../../core/settings"
import { AcpAgent } from "./acp-agent"
import { PERMISSION_MODE_CONFIG_ID } from "./permission-mode-option"
import { SessionStore } from "./session-store"

export interface AcpFrontOptions {
  version: string
  globalSettingsFile?: string
}

/** Log lines and notices go to stderr: stdout carries nothing but ACP messages. */
const sink: LogSink = (level, line) => void process.stderr.write(`agent-lsp ${level}: ${line}\n`)

/**
 * `agent-lsp --acp`: the Agent Client Protocol (version 1) over stdin/stdout as newline-delimited JSON-RPC,
 * with the official SDK. Exits when the client closes the connection.
 */
export async function startAcpFront(options: AcpFrontOptions): Promise<void> {
  const settings = new SettingsManager((message) => sink("warn", message))
  await settings.loadInitial(undefined, options.globalSettingsFile)
  const agent = new AcpAgent({
    version: options.version,
    globalSettingsFile: options.globalSettingsFile,
    store: new SessionStore(settings.value.stateDir ?? defaultStateDir()),
    sink,
  })
  const app = acp
    .agent({ name: "agent-lsp" })
    .onConnect((connection) => agent.connected(connection.client))
    .onRequest("initialize", ({ params }) => agent.initialize(params.clientCapabilities))
    .onRequest("session/new", ({ params }) => agent.newSession(params.cwd, params.mcpServers ?? []))
    .onRequest("session/load", ({ params }) => agent.loadSession(params.sessionId, params.cwd, params.mcpServers ?? []))
    .onRequest("session/list", ({ params }) => agent.listSessions(params.cwd))
    .onRequest("session/prompt", ({ params }) => agent.prompt(params.sessionId, (session) => session.prompt(params.prompt)))
    .onRequest("session/set_mode", async ({ params }) => void (await agent.session(params.sessionId).setMode(params.modeId)))
    // The permission mode (fronts/acp/permission-mode-option.ts); other config options are refused by name.
    .onRequest("session/set_config_option", async ({ params }) => {
      if (params.configId !== PERMISSION_MODE_CONFIG_ID)
        throw acp.RequestError.invalidParams(
          undefined,
          `Unknown config option "${params.configId}"; this agent has "${PERMISSION_MODE_CONFIG_ID}".`,
        )
      return { configOptions: await agent.session(params.sessionId).setPermissionMode(params.value) }
    })
    .onNotification("session/cancel", ({ params }) => agent.session(params.sessionId).cancel())
  const stream = acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  )
  const connection = app.connect(stream)
  const stop = async (code: number) => {
    await Promise.race([agent.dispose(), new Promise((resolve) => setTimeout(resolve, 5000).unref())])
    process.exit(code)
  }
  void connection.closed.then(
    () => stop(0),
    () => stop(1),
  )
  process.on("SIGTERM", () => void stop(0))
}
