import { Readable, Writable } from "node:stream"
import * as acp from "@agentclientprotocol/sdk"
import { defaultStateDir } from "../../config/paths"
import { passesLevel, type LogLevel, type LogSink } from "../../core/logger"
import { SettingsManager } from "../../core/settings"
import { endOnSignals, SHUTDOWN_SIGNALS } from "../../terminal/shutdown"
import { AcpAgent } from "./acp-agent"
import { OUTPUT_BACKLOG_LIMIT, OutputBacklog } from "../../core/output-backlog"
import { AcpAuth } from "./auth"
import { gatedInput } from "./input-gate"
import { EditLog } from "./edit-log"
import { SessionStore } from "./session-store"
import { redactingStream } from "./redacting-stream"

export interface AcpFrontOptions {
  version: string
  globalSettingsFile?: string
}

/**
 * `agent-lsp --acp`: the Agent Client Protocol (version 1) over stdin/stdout as newline-delimited JSON-RPC,
 * with the official SDK. Exits when the client closes the connection.
 */
export async function startAcpFront(options: AcpFrontOptions): Promise<void> {
  /**
   * Log lines and notices go to stderr (stdout carries nothing but ACP messages), but only warnings and
   * errors unless agent.log.level is "debug": clients such as acp.el show every stderr chunk as an error.
   * Everything agent.log.level lets through still reaches agent.log.file.
   */
  let stderrLevel: LogLevel = "warn"
  const sink: LogSink = (level, line) => {
    if (passesLevel(level, stderrLevel)) process.stderr.write(`agent-lsp ${level}: ${line}\n`)
  }
  const settings = new SettingsManager((message) => sink("warn", message))
  await settings.loadInitial(undefined, options.globalSettingsFile)
  if (settings.value.log.level === "debug") stderrLevel = "debug"
  const auth = new AcpAuth(() => settings.value)
  const agent = new AcpAgent({
    version: options.version,
    auth,
    globalSettingsFile: options.globalSettingsFile,
    store: new SessionStore(settings.value.stateDir ?? defaultStateDir()),
    edits: new EditLog(settings.value.stateDir ?? defaultStateDir()),
    sink,
  })
  const app = acp
    .agent({ name: "agent-lsp" })
    .onConnect((connection) => agent.connected(connection.client))
    .onRequest("initialize", ({ params }) => agent.initialize(params.clientCapabilities))
    .onRequest("authenticate", ({ params }) => auth.authenticate(params.methodId))
    .onRequest("logout", () => auth.logout())
    .onRequest("session/new", ({ params }) => {
      auth.requireReady()
      return agent.newSession(params)
    })
    .onRequest("session/load", ({ params }) => agent.loadSession(params))
    .onRequest("session/resume", ({ params }) => agent.loadSession(params, false))
    .onRequest("session/list", ({ params }) => agent.listSessions(params.cwd))
    .onRequest("session/delete", async ({ params }) => void (await agent.deleteSession(params.sessionId)))
    .onRequest("session/close", async ({ params }) => void (await agent.closeSession(params.sessionId)))
    .onRequest("session/prompt", ({ params, signal }) =>
      agent.prompt(params.sessionId, (session) => {
        // $/cancel_request for the prompt (the SDK aborts its signal) stops the task like session/cancel.
        signal.addEventListener("abort", () => void session.cancel(), { once: true })
        return session.prompt(params.prompt)
      }),
    )
    .onRequest("session/set_mode", async ({ params }) => void (await agent.session(params.sessionId).setMode(params.modeId)))
    .onRequest("session/set_config_option", ({ params }) => agent.session(params.sessionId).setConfigOption(params.configId, params.value))
    .onNotification("session/cancel", ({ params }) => agent.session(params.sessionId).cancel())
  // A client that does not read our answers is not read either (memory stays bounded; see OutputBacklog).
  const backlog = new OutputBacklog(OUTPUT_BACKLOG_LIMIT)
  const stream = redactingStream(
    acp.ndJsonStream(
      Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
      gatedInput(Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, backlog),
    ),
    backlog,
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
  // Closed stdin ends the connection (above); a signal ends the agent with every command it started.
  endOnSignals(SHUTDOWN_SIGNALS, () => agent.dispose())
}
