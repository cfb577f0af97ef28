import { chmod, mkdir, rename, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { configDir } from "../config/paths"
import { readRegularFile } from "../config/regular-file"

/**
 * What one MCP server's OAuth sign-in leaves behind: the dynamic client registration, the tokens, the
 * discovery result and the loopback port the registration's redirect URI names. Values are stored as the
 * SDK hands them over (with their `issuer`), so it never presents them to another authorization server.
 */
export interface McpOAuthEntry {
  clientInformation?: Record<string, unknown>
  tokens?: Record<string, unknown>
  discoveryState?: Record<string, unknown>
  /** The port of http://127.0.0.1:<port>/callback registered with the authorization server. */
  callbackPort?: number
  savedAt?: string
}

/** `mcp-oauth.json` in the global settings folder (beside `agent-lsp login`'s credentials.json). */
export function mcpOAuthFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), "mcp-oauth.json")
}

/**
 * The OAuth state of every remote MCP server, one JSON file, mode 0600 from its first byte, folder 0700,
 * written atomically: in the user's global settings folder (which commands the agent runs cannot see:
 * sandbox/policy.ts masks it), never in a project, a log or a task file. Entries are keyed by where the
 * server's configuration came from and its URL, so a workspace `.roo/mcp.json` naming the same URL as the
 * user's own settings never gets the user's tokens without signing in itself.
 */
export class McpOAuthStore {
  /** Writes one after another, so two servers signing in at once do not lose each other's entry. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(readonly file: string = mcpOAuthFile()) {}

  static key(source: string, url: string): string {
    return `${source} ${url}`
  }

  async get(key: string): Promise<McpOAuthEntry> {
    await this.queue
    return (await this.readAll())[key] ?? {}
  }

  /** Changes one entry (a field set to undefined is removed) and writes the file. */
  update(key: string, change: Partial<McpOAuthEntry>): Promise<void> {
    const next = this.queue.then(async () => {
      const all = await this.readAll()
      const entry: McpOAuthEntry = { ...all[key], ...change, savedAt: new Date().toISOString() }
      for (const field of Object.keys(entry) as (keyof McpOAuthEntry)[]) if (entry[field] === undefined) delete entry[field]
      all[key] = entry
      await this.writeAll(all)
    })
    this.queue = next.catch(() => undefined)
    return next
  }

  private async readAll(): Promise<Record<string, McpOAuthEntry>> {
    try {
      const json = JSON.parse((await readRegularFile(this.file)).toString("utf8")) as unknown
      return json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, McpOAuthEntry>) : {}
    } catch {
      // Missing, broken or not a regular file (a FIFO would block the read): every server signs in again (a broken file must not stop the servers).
      return {}
    }
  }

  private async writeAll(all: Record<string, McpOAuthEntry>): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true, mode: 0o700 })
    const temp = `${this.file}.${process.pid}.tmp`
    await writeFile(temp, `${JSON.stringify(all, null, 1)}\n`, { mode: 0o600 })
    await chmod(temp, 0o600)
    await rename(temp, this.file)
  }
}
