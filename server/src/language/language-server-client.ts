import { spawn, type ChildProcess } from "node:child_process"
import { pathToFileURL } from "node:url"
import {
  CancellationTokenSource,
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from "vscode-jsonrpc/node"
import { PassThrough } from "node:stream"
import { withFd3 } from "../terminal/launch"
import { PublishLog } from "./publish-log"
import type { ServerLaunch } from "./server-launch"

/** An LSP Diagnostic as a language server publishes it (only the fields we read). */
export interface LspDiagnostic {
  range: { start: { line: number; character: number } }
  severity?: number
  code?: string | number
  source?: string
  message: string
}

/**
 * What the agent tells a language server it can do: documents, their diagnostics, and the requests of the
 * lsp and rename_symbol tools (answers in markdown, hierarchical symbols, plain `changes` for renames).
 */
const CLIENT_CAPABILITIES = {
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false, willSave: false, willSaveWaitUntil: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: false, codeDescriptionSupport: false, dataSupport: false },
    definition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    hover: { contentFormat: ["markdown", "plaintext"] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    callHierarchy: {},
    rename: { prepareSupport: false },
  },
  workspace: { configuration: true, workspaceFolders: true, symbol: {}, workspaceEdit: { documentChanges: true } },
  window: { workDoneProgress: false },
}

/** Documents one server keeps open for the lsp tool before the least recently used is closed. */
const MAX_SYNCED_DOCUMENTS = 50
/** A document counts as analysed once its diagnostics were published and then none came for this long. */
const ANALYSIS_QUIET_MS = 150
/** The polite shutdown's bound: the agent's own exit must not hang on a server. */
const SHUTDOWN_WAIT_MS = 2000

export interface LanguageServerConfig {
  /** The LSP language id sent with didOpen (e.g. "typescript"). */
  languageId: string
  command: string[]
}

/**
 * One language server the agent started (agent.languageServers): an LSP client over the server's stdio
 * that opens documents, follows their changes, records what the server publishes and asks it the lsp
 * tool's questions. It runs as `launch` says (./server-launch.ts: in the OS sandbox, with a command's
 * key-free environment); when it may not start, it is a client whose `failure` says why.
 */
export class LanguageServerClient {
  readonly diagnostics = new PublishLog()
  private readonly process: ChildProcess | undefined
  private readonly connection: MessageConnection
  private readonly ready: Promise<void>
  private readonly versions = new Map<string, number>()
  /** The text the server has of each document opened through sync(), least recently used first. */
  private readonly synced = new Map<string, string>()
  private exited: string | undefined

  constructor(
    readonly config: LanguageServerConfig,
    readonly rootPath: string,
    private readonly log: (message: string) => void,
    launch: ServerLaunch,
  ) {
    if (!launch.ok) {
      // Nothing started: a connection to nothing, and every request fails with why.
      this.process = undefined
      this.exited = `could not start: ${launch.message}`
      this.log(`${this.name} ${this.exited}`)
      this.connection = createMessageConnection(new StreamMessageReader(new PassThrough()), new StreamMessageWriter(new PassThrough()))
      this.ready = Promise.reject(new Error(`${this.name} ${this.exited}`))
      this.ready.catch(() => undefined)
      return
    }
    const child = withFd3(launch, (extraStdio) =>
      spawn(launch.file, launch.args, { cwd: rootPath, env: launch.env, stdio: ["pipe", "pipe", "pipe", ...extraStdio] }),
    )
    this.process = child
    child.stderr?.resume() // servers log freely on stderr; reading it keeps them from blocking
    child.on("error", (error) => this.onExit(`could not start: ${error.message}`))
    child.on("exit", (code, signal) => this.onExit(`exited (${signal ?? `code ${code}`})`))
    child.on("close", () => launch.dispose())
    // A server that dies mid-write must not take the agent down with an EPIPE.
    child.stdin?.on("error", () => undefined)
    this.connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!))
    this.connection.onNotification("textDocument/publishDiagnostics", (params: { uri: string; diagnostics: LspDiagnostic[] }) => {
      if (params && typeof params.uri === "string" && Array.isArray(params.diagnostics))
        this.diagnostics.record(params.uri, params.diagnostics)
    })
    // Servers ask for settings and register capabilities; plain answers keep them going.
    this.connection.onRequest("workspace/configuration", (params: { items?: unknown[] }) => (params?.items ?? []).map(() => null))
    this.connection.onRequest(() => null)
    this.connection.onError(([error]) => this.log(`${this.name}: ${error.message}`))
    this.connection.listen()
    const rootUri = pathToFileURL(rootPath).toString()
    this.ready = this.initialize(rootUri, launch.sandboxed ? null : process.pid)
    this.ready.catch((error) => this.log(`${this.name}: initialize failed: ${(error as Error).message}`))
  }

  private async initialize(rootUri: string, processId: number | null): Promise<void> {
    await this.connection.sendRequest("initialize", {
      processId,
      clientInfo: { name: "agent-lsp" },
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: "workspace" }],
      capabilities: CLIENT_CAPABILITIES,
    })
    await this.connection.sendNotification("initialized", {})
  }

  get name(): string {
    return `language server ${this.config.languageId} (${this.config.command[0]})`
  }

  /** The server's process id (undefined when it could not be started). */
  get pid(): number | undefined {
    return this.process?.pid
  }

  /** Why the server is gone, or undefined while it runs. */
  get failure(): string | undefined {
    return this.exited
  }

  /** Resolves once initialized; rejects if the server failed to start or initialize. */
  whenReady(): Promise<void> {
    return this.ready
  }

  isOpen(uri: string): boolean {
    return this.versions.has(uri)
  }

  async open(uri: string, text: string): Promise<void> {
    await this.ready
    this.versions.set(uri, 1)
    await this.connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: this.config.languageId, version: 1, text },
    })
  }

  async change(uri: string, text: string): Promise<void> {
    await this.ready
    const version = (this.versions.get(uri) ?? 1) + 1
    this.versions.set(uri, version)
    await this.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] })
  }

  async close(uri: string): Promise<void> {
    this.synced.delete(uri)
    if (!this.versions.delete(uri)) return
    this.diagnostics.forget(uri)
    await this.connection.sendNotification("textDocument/didClose", { textDocument: { uri } }).catch(() => undefined)
  }

  /**
   * Makes the server hold `text` for `uri` (didOpen, or didChange when it holds another text), keeping at
   * most MAX_SYNCED_DOCUMENTS open this way (the least recently used is closed). Resolves with the
   * diagnostics mark taken before the document was sent, or undefined when the server already had it.
   */
  async sync(uri: string, text: string): Promise<number | undefined> {
    const held = this.synced.get(uri)
    this.synced.delete(uri)
    this.synced.set(uri, text)
    if (held === text && this.isOpen(uri)) return undefined
    await this.ready
    const mark = this.diagnostics.mark()
    if (this.isOpen(uri)) await this.change(uri, text)
    else await this.open(uri, text)
    while (this.synced.size > MAX_SYNCED_DOCUMENTS) {
      const oldest = this.synced.keys().next().value as string
      await this.close(oldest)
    }
    return mark
  }

  /**
   * Waits (at most `timeoutMs`) until the server has analysed a document just sent: its diagnostics
   * published after `mark` and settled. Until then a server may answer from a partial view:
   * typescript-language-server answers from its syntax-only server while the project loads, so a
   * definition stops at the import and references miss files.
   */
  async analysed(uri: string, mark: number, timeoutMs: number, signal: AbortSignal): Promise<void> {
    await this.diagnostics.settled(uri, mark, ANALYSIS_QUIET_MS, timeoutMs, signal)
  }

  /**
   * One request, cancelled on the wire ($/cancelRequest) when `timeoutMs` passes or `signal` aborts first;
   * the server's start counts against the same bound.
   */
  async request(method: string, params: unknown, timeoutMs: number, signal: AbortSignal): Promise<unknown> {
    const source = new CancellationTokenSource()
    let timer: NodeJS.Timeout | undefined
    const onAbort = () => source.cancel()
    signal.addEventListener("abort", onAbort, { once: true })
    try {
      const stopped = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          source.cancel()
          reject(new Error(`${this.name} did not answer ${method} within ${timeoutMs / 1000} s`))
        }, timeoutMs)
        source.token.onCancellationRequested(() => reject(new Error(`${method} was cancelled`)))
      })
      const answered = this.ready.then(() => this.connection.sendRequest(method, params, source.token))
      answered.catch(() => undefined)
      if (signal.aborted) source.cancel()
      return await Promise.race([answered, stopped])
    } finally {
      clearTimeout(timer)
      signal.removeEventListener("abort", onAbort)
      source.dispose()
    }
  }

  /** shutdown + exit, then a kill if the server lingers (bounded: the agent's own exit must not hang). */
  async dispose(reason = "shut down"): Promise<void> {
    if (!this.exited) {
      this.exited = reason
      const polite = (async () => {
        await this.connection.sendRequest("shutdown")
        await this.connection.sendNotification("exit")
      })().catch(() => undefined)
      await Promise.race([polite, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref())])
    }
    this.connection.dispose()
    if (this.process && this.process.exitCode === null && this.process.signalCode === null) this.process.kill("SIGKILL")
  }

  /** Kills the server at once (the agent is exiting: no time for a polite shutdown). */
  killNow(): void {
    this.exited ??= "killed on exit"
    if (this.process && this.process.exitCode === null && this.process.signalCode === null) this.process.kill("SIGKILL")
  }

  private onExit(reason: string): void {
    if (this.exited) return
    this.exited = reason
    this.log(`${this.name} ${reason}`)
    // Requests waiting for an answer (initialize among them) fail now, not at their time limit.
    this.connection.dispose()
  }
}
