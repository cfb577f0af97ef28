import type { McpPort } from "./port"

/** The most changed resources one notice names (the rest are counted). */
const MAX_NAMED = 10

/**
 * One task's watch on the MCP resources it keeps reading. A resource is subscribed to (resources/subscribe,
 * where its server declared `resources.subscribe`) when the task reads it a second time, or reads it after
 * a tool result named it (a resource link or an embedded resource). When the server says it changed
 * (notifications/resources/updated), the task's next turn is told once; reading it again clears the notice.
 * Everything is unsubscribed when the task's run ends.
 */
export class McpResourceWatch {
  private readonly reads = new Map<string, number>()
  private readonly linked = new Set<string>()
  private readonly subscribed = new Map<string, { server: string; uri: string }>()
  /** Changed since the task last read them, in the order the notices came, without repeats. */
  private readonly changed = new Set<string>()
  private stopListening: (() => void) | undefined

  constructor(private readonly mcp: McpPort) {}

  /** A tool result of `server` named these resources. */
  noteLinks(server: string, uris: readonly string[]): void {
    for (const uri of uris) this.linked.add(key(server, uri))
  }

  /** The task read `uri` of `server` (successfully): subscribe when it keeps reading it. */
  async noteRead(server: string, uri: string): Promise<void> {
    const k = key(server, uri)
    const count = (this.reads.get(k) ?? 0) + 1
    this.reads.set(k, count)
    this.changed.delete(k)
    if (this.subscribed.has(k) || (count < 2 && !this.linked.has(k))) return
    const { subscribeResource, onResourceUpdated } = this.mcp
    if (!subscribeResource || !onResourceUpdated) return
    this.subscribed.set(k, { server, uri })
    this.stopListening ??= onResourceUpdated.call(this.mcp, (s, u) => {
      const changed = key(s, u)
      if (this.subscribed.has(changed)) this.changed.add(changed)
    })
    if (!(await subscribeResource.call(this.mcp, server, uri))) this.subscribed.delete(k)
  }

  /** The notice for the model's next turn (each change once), or undefined when nothing changed. */
  takeNotice(): string | undefined {
    if (this.changed.size === 0) return undefined
    const all = [...this.changed].map((k) => this.subscribed.get(k)).filter((r) => r !== undefined)
    this.changed.clear()
    if (all.length === 0) return undefined
    const lines = all.slice(0, MAX_NAMED).map((r) => `- ${r.uri} (server "${r.server}")`)
    if (all.length > MAX_NAMED) lines.push(`- and ${all.length - MAX_NAMED} more`)
    return `MCP resources you read have changed since (the servers sent resource updates):\n${lines.join("\n")}\nRead them again with access_mcp_resource if their current content matters for the task.`
  }

  /** Unsubscribes everything (the task's run ended); the watch can start again later. */
  async dispose(): Promise<void> {
    this.stopListening?.()
    this.stopListening = undefined
    const subscribed = [...this.subscribed.values()]
    this.subscribed.clear()
    this.changed.clear()
    this.reads.clear()
    await Promise.all(subscribed.map((r) => this.mcp.unsubscribeResource?.(r.server, r.uri)))
  }
}

function key(server: string, uri: string): string {
  return `${server} ${uri}`
}
