import type { PromptContext } from "./sections"

/** A resource or resource template as the prompt lists it (the shape of mcp/port's McpResourceInfo). */
export interface PromptMcpResource {
  server: string
  /** The URI, or the URI template (RFC 6570) for templates. */
  uri: string
  name: string
  template: boolean
}

/** At most this many resources (templates first) per server: the model pays for every line on every request. */
export const MAX_RESOURCES_PER_SERVER = 20
const MAX_URI = 200
const MAX_NAME = 80

/**
 * MCP RESOURCES: per connected server, its resource templates and resources (URI and name), so
 * access_mcp_resource is called with a URI the server offers rather than a guessed one. Empty when no
 * server offers any or access_mcp_resource is not offered, so a session without MCP pays nothing.
 */
export function mcpResourcesSection(ctx: PromptContext): string {
  const resources = ctx.mcpResources ?? []
  if (resources.length === 0 || !ctx.toolNames.includes("access_mcp_resource")) return ""
  const byServer = new Map<string, PromptMcpResource[]>()
  for (const r of resources) byServer.set(r.server, [...(byServer.get(r.server) ?? []), r])
  const lines = [
    "====",
    "",
    "MCP RESOURCES",
    "",
    "Read these with access_mcp_resource (server name and URI). Fill a template's {placeholders} to form a URI.",
  ]
  for (const [server, list] of byServer) {
    const ordered = [...list.filter((r) => r.template), ...list.filter((r) => !r.template)]
    lines.push("", `## ${oneLine(server, MAX_NAME)}`)
    for (const r of ordered.slice(0, MAX_RESOURCES_PER_SERVER))
      lines.push(`- ${r.template ? "template " : ""}${oneLine(r.uri, MAX_URI)} (${oneLine(r.name, MAX_NAME)})`)
    const more = ordered.length - MAX_RESOURCES_PER_SERVER
    if (more > 0) lines.push(`- …and ${more} more (not listed; ask the user or use the server's tools to find them)`)
  }
  return lines.join("\n")
}

/** Server-supplied text on one line and bounded, so it cannot add lines or sections to the prompt. */
function oneLine(text: string, max: number): string {
  const flat = text.replace(/[\r\n\u2028\u2029]+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
