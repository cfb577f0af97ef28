import { spawn, type ChildProcess } from "node:child_process"
import { pathToFileURL } from "node:url"
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node"
import { commandEnv } from "../terminal/env"
import type { LspDiagnostic } from "./problems"
import { PublishLog } from "./publish-log"

/** What the agent tells a language server it can do: documents and their diagnostics, nothing else. */
const CLIENT_CAPABILITIES = {
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false, willSave: false, willSaveWaitUntil: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: false, codeDescriptionSupport: false, dataSupport: false },
  },
  workspace: { configuration: true, workspaceFolders: true },
  window: { workDoneProgress: false },
}

export interface LanguageServerConfig {
  /** The LSP language id sent with didOpen (e.g. "typescript"). */
  languageId: string
  command: string[]
}

/**
 * One language server the agent started to check the files it edits: an LSP client over the server's
 * stdio that opens documents, follows their changes and records what the server publishes. It never sees
 * the API keys (its environment is a command's, see terminal/env.ts).
 */
export class LanguageServerClient {
  readonly diagnostics = new PublishLog()
  private readonly process: ChildProcess
  private readonly connection: MessageConnection
  private readonly ready: Promise<void>
  private readonly versions = new Map<string, number>()
  private exited: string | undefined

  constructor(
    readonly config: LanguageServerConfig,
    rootPath: string,
    private readonly log: (message: string) => void,
  ) {
    const [program, ...args] = config.command
    this.process = spawn(program!, args, { cwd: rootPath, env: commandEnv(), stdio: ["pipe", "pipe", "pipe"] })
    this.process.stderr?.resume() // servers log freely on stderr; reading it keeps them from blocking
    this.process.on("error", (error) => this.onExit(`could not start: ${error.message}`))
    this.process.on("exit", (code, signal) => this.onExit(`exited (${signal ?? `code ${code}`})`))
    this.connection = createMessageConnection(new StreamMessageReader(this.process.stdout!), new StreamMessageWriter(this.process.stdin!))
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
    this.ready = this.initialize(rootUri)
    this.ready.catch((error) => this.log(`${this.name}: initialize failed: ${(error as Error).message}`))
  }

  private async initialize(rootUri: string): Promise<void> {
    await this.connection.sendRequest("initialize", {
      processId: process.pid,
      clientInfo: { name: "agent-lsp diagnostics" },
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: "workspace" }],
      capabilities: CLIENT_CAPABILITIES,
    })
    await this.connection.sendNotification("initialized", {})
  }

  get name(): string {
    return `language server ${this.config.languageId} (${this.config.command[0]})`
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
    if (!this.versions.delete(uri)) return
    this.diagnostics.forget(uri)
    await this.connection.sendNotification("textDocument/didClose", { textDocument: { uri } }).catch(() => undefined)
  }

  /** shutdown + exit, then a kill if the server lingers (bounded: the agent's own exit must not hang). */
  async dispose(): Promise<void> {
    if (!this.exited) {
      const polite = (async () => {
        await this.connection.sendRequest("shutdown")
        await this.connection.sendNotification("exit")
      })().catch(() => undefined)
      await Promise.race([polite, new Promise((resolve) => setTimeout(resolve, 2000).unref())])
    }
    this.connection.dispose()
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill("SIGKILL")
  }

  private onExit(reason: string): void {
    if (this.exited) return
    this.exited = reason
    this.log(`${this.name} ${reason}`)
  }
}
