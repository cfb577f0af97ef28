import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, existsSync, realpathSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node"
import { TextDocument } from "vscode-languageserver-textdocument"
import type { TaskStatus, TaskUpdate } from "@agent-lsp/protocol"

export const SERVER_ENTRY = fileURLToPath(new URL("../../dist/agent-lsp.mjs", import.meta.url))

/** An agent/taskUpdate notification as the client received it. */
export interface ReceivedUpdate {
  taskId: string
  seq: number
  update: TaskUpdate
}

/** The editor's answers to server → client requests; each test overrides what it needs. */
export interface ClientHandlers {
  applyEdit: (params: any) => Promise<{ applied: boolean; failureReason?: string }> | { applied: boolean; failureReason?: string }
  showMessageRequest: (params: { message: string; actions?: { title: string }[] }) => unknown
  requestApproval: (params: any) => unknown
  askFollowup: (params: any) => unknown
  saveDocuments: (params: { uris: string[] }) => unknown
  configuration: (params: any) => unknown
  showDocument: (params: any) => unknown
  /** agent/diagnostics (clients declaring experimental.agentDiagnostics); default: no problems. */
  diagnostics: (params: { uris: string[] }) => unknown
  /** agent/languageFeature (clients declaring experimental.agent.languageFeature); default: null (no server). */
  languageFeature: (params: any) => unknown
}

export interface StartOptions {
  /** Workspace folder(s), absolute. */
  workspace: string | string[]
  /** Base URL of the fake Messages API. */
  apiUrl?: string
  /** "rich" declares every experimental.agent capability (default); "plain" declares none. */
  client?: "rich" | "plain"
  /** Replaces the capabilities entirely. */
  capabilities?: Record<string, unknown>
  initializationOptions?: unknown
  env?: Record<string, string | undefined>
  /** Skip the initialize handshake (wire robustness tests). */
  skipInitialize?: boolean
  processId?: number | null
}

export const RICH_CAPABILITIES = {
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true, resourceOperations: ["create", "rename", "delete"] },
    configuration: true,
    workspaceFolders: true,
  },
  window: {
    workDoneProgress: true,
    showMessage: { messageActionItem: { additionalPropertiesSupport: false } },
    showDocument: { support: true },
  },
  textDocument: { synchronization: { didSave: true, dynamicRegistration: false } },
  experimental: { agent: { requestApproval: true, askFollowup: true, saveDocuments: true, taskUpdates: true, deferredAnswers: true } },
}

const PLAIN_CAPABILITIES = {
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true, resourceOperations: ["create"] },
    configuration: true,
    workspaceFolders: true,
  },
  window: { workDoneProgress: true, showDocument: { support: true } },
}

/**
 * The built server (dist/agent-lsp.mjs) over stdio, driven like an editor: an in-memory document store
 * that applies workspace/applyEdit and sends the didChange back, overridable answers to every
 * server → client request, and a record of every notification.
 */
export class ServerHarness {
  readonly updates: ReceivedUpdate[] = []
  readonly notifications: { method: string; params: any }[] = []
  readonly serverRequests: { method: string; params: any }[] = []
  /** $/progress notifications (vscode-jsonrpc routes them apart from other notifications). */
  readonly progress: { token: string | number; value: any }[] = []
  readonly docs = new Map<string, TextDocument>()
  stderr = ""
  exitCode: number | null | undefined = undefined
  handlers: ClientHandlers
  initializeResult: any
  /** Called as each agent/taskUpdate arrives (benches timestamp them). */
  onTaskUpdate: ((params: ReceivedUpdate) => void) | undefined
  private listeners: (() => void)[] = []

  constructor(
    readonly proc: ChildProcessWithoutNullStreams,
    readonly connection: MessageConnection,
    readonly stateHome: string,
  ) {
    this.handlers = {
      applyEdit: (params) => this.applyWorkspaceEdit(params.edit),
      showMessageRequest: () => null,
      requestApproval: (params) => ({ optionId: params.options.find((o: any) => o.kind === "allow_once")?.optionId }),
      askFollowup: (params) => ({ answer: params.suggestions[0]?.text ?? "yes" }),
      saveDocuments: (params) => ({ saved: params.uris.filter((uri) => this.saveToDisk(uri)) }),
      configuration: (params) => params.items.map(() => null),
      showDocument: () => ({ success: true }),
      diagnostics: (params) => ({ diagnostics: params.uris.map((uri) => ({ uri, items: [] })) }),
      languageFeature: () => null,
    }
    proc.stderr.on("data", (d) => (this.stderr += d.toString()))
    proc.on("exit", (code) => {
      this.exitCode = code
      this.notify()
    })
    const record = (method: string) => (params: any) => {
      this.serverRequests.push({ method, params })
      this.notify()
    }
    connection.onRequest("workspace/applyEdit", (p: any) => (record("workspace/applyEdit")(p), this.handlers.applyEdit(p) as any))
    connection.onRequest(
      "window/showMessageRequest",
      (p: any) => (record("window/showMessageRequest")(p), this.handlers.showMessageRequest(p)),
    )
    connection.onRequest("agent/requestApproval", (p) => (record("agent/requestApproval")(p), this.handlers.requestApproval(p)))
    connection.onRequest("agent/askFollowup", (p) => (record("agent/askFollowup")(p), this.handlers.askFollowup(p)))
    connection.onRequest("agent/saveDocuments", (p: any) => (record("agent/saveDocuments")(p), this.handlers.saveDocuments(p)))
    connection.onRequest("workspace/configuration", (p) => (record("workspace/configuration")(p), this.handlers.configuration(p)))
    connection.onRequest("window/showDocument", (p) => (record("window/showDocument")(p), this.handlers.showDocument(p)))
    connection.onRequest("agent/diagnostics", (p: any) => (record("agent/diagnostics")(p), this.handlers.diagnostics(p)))
    connection.onRequest("agent/languageFeature", (p: any) => (record("agent/languageFeature")(p), this.handlers.languageFeature(p)))
    connection.onRequest("window/workDoneProgress/create", (p) => (record("window/workDoneProgress/create")(p), null))
    connection.onRequest("client/registerCapability", () => null)
    connection.onNotification((method: string, params: any) => {
      if (method === "agent/taskUpdate") {
        this.onTaskUpdate?.(params)
        this.updates.push(params)
      }
      this.notifications.push({ method, params })
      this.notify()
    })
    connection.onUnhandledProgress((params) => {
      this.progress.push(params)
      this.notify()
    })
    connection.listen()
  }

  request<R = any>(method: string, params?: unknown): Promise<R> {
    return this.connection.sendRequest(method, params) as Promise<R>
  }

  notifyServer(method: string, params?: unknown): void {
    void this.connection.sendNotification(method, params)
  }

  /** didOpen of a file (its disk text unless given). */
  openDocument(path: string, text?: string, languageId = "plaintext"): TextDocument {
    const uri = pathToFileURL(path).toString()
    const doc = TextDocument.create(uri, languageId, 1, text ?? readFileSync(path, "utf8"))
    this.docs.set(uri, doc)
    this.notifyServer("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text: doc.getText() } })
    return doc
  }

  docText(path: string): string | undefined {
    return this.docs.get(pathToFileURL(path).toString())?.getText()
  }

  /** Applies a WorkspaceEdit like an editor: open documents change (and a didChange goes out), others change on disk. */
  applyWorkspaceEdit(edit: any): { applied: boolean } {
    const changes: { uri: string; edits: any[]; version?: number | null }[] = []
    for (const change of edit.documentChanges ?? []) {
      if (change.kind === "create") {
        const path = fileURLToPath(change.uri)
        if (!existsSync(path)) {
          mkdirSync(dirname(path), { recursive: true })
          writeFileSync(path, "")
        }
      } else if (change.textDocument)
        changes.push({ uri: change.textDocument.uri, edits: change.edits, version: change.textDocument.version })
    }
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) changes.push({ uri, edits: edits as any[] })
    for (const { uri, edits, version } of changes) {
      const doc = this.docs.get(uri)
      if (!doc) {
        const path = fileURLToPath(uri)
        const before = existsSync(path) ? readFileSync(path, "utf8") : ""
        writeFileSync(path, TextDocument.applyEdits(TextDocument.create(uri, "plaintext", 0, before), edits))
        continue
      }
      if (typeof version === "number" && version !== doc.version) return { applied: false }
      const newText = TextDocument.applyEdits(doc, edits)
      const next = TextDocument.create(uri, doc.languageId, doc.version + 1, newText)
      this.docs.set(uri, next)
      this.notifyServer("textDocument/didChange", { textDocument: { uri, version: next.version }, contentChanges: [{ text: newText }] })
    }
    return { applied: true }
  }

  /** Writes an open document to disk and sends didSave (what agent/saveDocuments asks of an editor). */
  saveToDisk(uri: string): boolean {
    const doc = this.docs.get(uri)
    if (!doc) return false
    writeFileSync(fileURLToPath(uri), doc.getText())
    this.notifyServer("textDocument/didSave", { textDocument: { uri } })
    return true
  }

  /** Resolves with the first value `check` returns that is not undefined, re-checked on every message and every 100 ms. */
  waitFor<T>(check: () => T | undefined | false, timeoutMs = 15_000, what = "condition"): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = () => {
        const value = check()
        if (value !== undefined && value !== false) {
          cleanup()
          resolve(value as T)
        }
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what}\nupdates: ${JSON.stringify(this.updates.slice(-10))}\nstderr: ${this.stderr.slice(-2000)}`,
          ),
        )
      }, timeoutMs)
      // Also poll: some conditions (a file on disk) change without a message arriving.
      const poll = setInterval(attempt, 100)
      const cleanup = () => {
        clearInterval(poll)
        clearTimeout(timer)
        this.listeners = this.listeners.filter((l) => l !== attempt)
      }
      this.listeners.push(attempt)
      attempt()
    })
  }

  /** Waits for a `status` update of the task with this status. */
  waitForStatus(taskId: string, status: TaskStatus, timeoutMs?: number): Promise<ReceivedUpdate> {
    return this.waitFor(
      () => this.updates.find((u) => u.taskId === taskId && u.update.kind === "status" && u.update.status === status),
      timeoutMs,
      `task ${taskId} to be ${status}`,
    )
  }

  updatesOf(taskId: string): TaskUpdate[] {
    return this.updates.filter((u) => u.taskId === taskId).map((u) => u.update)
  }

  /** shutdown + exit; resolves with the exit code. */
  async stop(): Promise<number | null> {
    if (this.exitCode === undefined) {
      try {
        await Promise.race([this.request("shutdown"), new Promise((r) => setTimeout(r, 3000))])
        this.notifyServer("exit")
      } catch {
        // already gone
      }
      await this.waitFor(() => this.exitCode !== undefined, 5000, "server exit").catch(() => this.proc.kill("SIGKILL"))
    }
    this.connection.dispose()
    return this.exitCode ?? null
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener()
  }
}

/** Spawns the built server and (unless skipped) completes initialize/initialized. */
export async function startServer(options: StartOptions): Promise<ServerHarness> {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run \`npm run build\` first`)
  const stateHome = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-home-")))
  const env: Record<string, string | undefined> = {
    ...process.env,
    XDG_STATE_HOME: join(stateHome, "state"),
    XDG_CONFIG_HOME: join(stateHome, "config"),
    ANTHROPIC_API_KEY: "sk-ant-test-harness-key-0123456789",
    ANTHROPIC_BASE_URL: options.apiUrl ?? "http://127.0.0.1:9",
    ...options.env,
  }
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k]
  const proc = spawn(process.execPath, [SERVER_ENTRY, "--stdio"], { env: env as NodeJS.ProcessEnv, stdio: "pipe" })
  const connection = createMessageConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin))
  const harness = new ServerHarness(proc, connection, stateHome)
  if (options.skipInitialize) return harness
  const folders = Array.isArray(options.workspace) ? options.workspace : [options.workspace]
  harness.initializeResult = await harness.request("initialize", {
    processId: options.processId === undefined ? process.pid : options.processId,
    clientInfo: { name: "agent-lsp-test-harness" },
    rootUri: pathToFileURL(folders[0]!).toString(),
    workspaceFolders: folders.map((f) => ({ uri: pathToFileURL(f).toString(), name: f.split("/").pop() })),
    capabilities: options.capabilities ?? (options.client === "plain" ? PLAIN_CAPABILITIES : RICH_CAPABILITIES),
    initializationOptions: options.initializationOptions,
  })
  harness.notifyServer("initialized", {})
  return harness
}
