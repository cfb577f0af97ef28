import { defaultStateDir } from "../config/paths"
import type { Settings } from "../config/schema"
import type { OpenAuthorizationUrl } from "../mcp/oauth-flow"
import type { Logger } from "../task/service"
import type { AskPort, EditorPort, TerminalPort } from "../tools/context"
import { AgentCore } from "./agent-core"
import { createLogger, type LogSink } from "./logger"
import { SettingsManager } from "./settings"

/** What a front without LSP (ACP, CLI) hands over to get a core for one workspace folder. */
export interface StandaloneCoreOptions {
  /** The workspace folder, absolute (ACP: the session's cwd; CLI: the current directory). */
  folder: string
  /** More workspace folders after `folder` (ACP's additionalDirectories), absolute real paths. */
  additionalFolders?: readonly string[]
  editor: EditorPort
  ask: AskPort
  /** Where commands run: our own runner (CLI; ACP without client terminals) or the client's terminals. */
  terminal: TerminalPort
  /** Where log lines and notices go (stderr for both fronts: stdout is the protocol or the result). */
  sink: LogSink
  /** The front's own trusted settings (CLI flags), over the global settings file. */
  trustedOptions?: unknown
  globalSettingsFile?: string
  /** What the front adds on top of the resolved settings (ACP: the client's MCP servers). */
  extend?: (settings: Settings) => Settings
  /** Shows a remote MCP server's sign-in page (default: a warning through `sink` with the URL). */
  openAuthorizationUrl?: OpenAuthorizationUrl
}

export interface StandaloneCore {
  core: AgentCore
  settings: () => Settings
  log: Logger
}

/**
 * Builds an AgentCore the way every non-LSP front needs it: settings from the global file plus the
 * front's trusted options (there is no workspace/configuration outside LSP), a logger to the front's sink
 * (redacted, agent.log.file honoured), and the state directory resolved.
 */
export async function openStandaloneCore(options: StandaloneCoreOptions): Promise<StandaloneCore> {
  const manager = new SettingsManager((message) => options.sink("warn", message))
  await manager.loadInitial(options.trustedOptions, options.globalSettingsFile)
  const settings = () => (options.extend ? options.extend(manager.value) : manager.value)
  const log = createLogger(options.sink, () => settings().log)
  const core = new AgentCore({
    folders: () => [options.folder, ...(options.additionalFolders ?? [])],
    settings,
    editor: options.editor,
    ask: options.ask,
    terminal: options.terminal,
    log,
    stateDir: settings().stateDir ?? defaultStateDir(),
    notify: (message) => options.sink("warn", message),
    ...(options.openAuthorizationUrl ? { openAuthorizationUrl: options.openAuthorizationUrl } : {}),
  })
  // The codebase index builds in the background (codebase_search answers from what is indexed so far).
  core.start()
  return { core, settings, log }
}
