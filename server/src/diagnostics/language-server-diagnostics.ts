import { fileURLToPath, pathToFileURL } from "node:url"
import type { Settings } from "../config/schema"
import type { LanguageServerClient } from "../language/language-server-client"
import type { LanguageServers } from "../language/language-servers"
import type { DiagnosticsPort, DiagnosticsWatch, FileProblems, Problem } from "../tools/context"
import { toProblems } from "./problems"

/** A publish, then this long without another, counts as the server's answer for a change. */
const QUIET_MS = 800
/** Documents kept open per server, so consecutive edits of a file need not wait for its "before" problems. */
const MAX_OPEN_DOCUMENTS = 20

export interface LanguageServerDiagnosticsOptions {
  /** The core's language servers (shared with the lsp tool). */
  servers: LanguageServers
  settings: () => Settings
  log: (message: string) => void
}

/**
 * Diagnostics from language servers the agent starts itself (agent.languageServers), for editors that
 * do not answer agent/diagnostics and for the ACP and headless fronts. A file is opened in its server with
 * its text before the edit and changed to the text after it; what the server publishes, once settled, is
 * the file's problems.
 */
export class LanguageServerDiagnostics implements DiagnosticsPort {
  /** Per URI, the text the server has (documents kept open, oldest first). */
  private readonly open = new Map<string, { client: LanguageServerClient; text: string }>()

  constructor(private readonly options: LanguageServerDiagnosticsOptions) {}

  async watch(path: string, text: string | undefined, signal: AbortSignal): Promise<DiagnosticsWatch | undefined> {
    const client = this.options.servers.forPath(path)
    if (!client || client.failure) return undefined
    const uri = pathToFileURL(path).toString()
    const before = text === undefined ? [] : await this.problemsOf(client, uri, text, signal)
    return { before, after: (newText, afterSignal) => this.problemsOf(client, uri, newText, afterSignal) }
  }

  /** What the started servers last published, for every file they published for (they are asked nothing). */
  async current(): Promise<FileProblems[]> {
    const out: FileProblems[] = []
    for (const client of this.options.servers.running())
      for (const { uri, items } of client.diagnostics.all())
        if (uri.startsWith("file:")) out.push({ path: fileURLToPath(uri), problems: toProblems(items) })
    return out
  }

  /** The file's problems with `text` as its content: sent to the server unless it already has that text. */
  private async problemsOf(client: LanguageServerClient, uri: string, text: string, signal: AbortSignal): Promise<Problem[] | undefined> {
    const known = this.open.get(uri)
    const since = client.diagnostics.mark()
    const timeoutMs = this.options.settings().diagnostics.timeoutSeconds * 1000
    // A server that never answers initialize must not hold the edit: its start counts against the same bound.
    const started = Date.now()
    if (!(await readyWithin(client, timeoutMs, signal))) return undefined
    const left = Math.max(timeoutMs - (Date.now() - started), 1)
    if (known?.client === client && known.text === text && client.isOpen(uri)) {
      // Unchanged since the last edit: its settled diagnostics are the latest published (mark 0 = any).
      const items = await client.diagnostics.settled(uri, 0, QUIET_MS, left, signal)
      return items && toProblems(items)
    }
    try {
      if (client.isOpen(uri)) await client.change(uri, text)
      else await client.open(uri, text)
    } catch (error) {
      this.options.log(`${client.name}: ${(error as Error).message}`)
      return undefined
    }
    this.remember(uri, client, text)
    const items = await client.diagnostics.settled(uri, since, QUIET_MS, left, signal)
    return items && toProblems(items)
  }

  private remember(uri: string, client: LanguageServerClient, text: string): void {
    this.open.delete(uri)
    this.open.set(uri, { client, text })
    while (this.open.size > MAX_OPEN_DOCUMENTS) {
      const [oldest, entry] = this.open.entries().next().value as [string, { client: LanguageServerClient }]
      this.open.delete(oldest)
      void entry.client.close(oldest)
    }
  }
}

/** True once the server is initialized; false when it failed, `timeoutMs` passed or `signal` aborted first. */
function readyWithin(client: LanguageServerClient, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (ready: boolean) => {
      clearTimeout(timer)
      signal.removeEventListener("abort", onAbort)
      resolve(ready)
    }
    const onAbort = () => finish(false)
    const timer = setTimeout(() => finish(false), timeoutMs)
    signal.addEventListener("abort", onAbort, { once: true })
    if (signal.aborted) return finish(false)
    client.whenReady().then(
      () => finish(true),
      () => finish(false),
    )
  })
}
