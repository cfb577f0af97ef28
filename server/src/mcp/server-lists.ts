import type { McpPromptInfo, McpResourceInfo, McpToolInfo } from "./port"
import type { McpSdk } from "./sdk"

type SdkClient = InstanceType<McpSdk["Client"]>

/** A tool as tools/list sends it (the fields we keep). */
export interface SdkTool {
  name: string
  description?: string
  inputSchema: unknown
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean }
}
export type SdkResource = { uri: string; name: string; description?: string; mimeType?: string }
export type SdkPrompt = { name: string; description?: string; arguments?: McpPromptInfo["arguments"] }

/** What a connected server offers, as the hub keeps it. */
export interface ServerLists {
  tools: McpToolInfo[]
  resources: McpResourceInfo[]
  prompts: McpPromptInfo[]
}

/** Everything the server's capabilities say it lists, every page; templates are optional (MethodNotFound is none). */
export async function listEverything(client: SdkClient, server: string, trusted: boolean, timeoutMs: number): Promise<ServerLists> {
  const caps = client.getServerCapabilities() ?? {}
  const opts = { timeout: timeoutMs }
  const tools: McpToolInfo[] = []
  if (caps.tools) {
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, opts)
      for (const t of page.tools) tools.push(toolInfo(t, server, trusted))
      cursor = page.nextCursor
    } while (cursor)
  }
  const resources: McpResourceInfo[] = []
  if (caps.resources) {
    let cursor: string | undefined
    do {
      const page = await client.listResources(cursor ? { cursor } : {}, opts)
      for (const r of page.resources) resources.push(resourceInfo(r, server))
      cursor = page.nextCursor
    } while (cursor)
    const templates = await client.listResourceTemplates({}, opts).catch(() => ({ resourceTemplates: [] }))
    for (const t of templates.resourceTemplates) resources.push({ ...resourceInfo({ ...t, uri: t.uriTemplate }, server), template: true })
  }
  const prompts: McpPromptInfo[] = []
  if (caps.prompts) {
    let cursor: string | undefined
    do {
      const page = await client.listPrompts(cursor ? { cursor } : {}, opts)
      for (const p of page.prompts) prompts.push(promptInfo(p, server))
      cursor = page.nextCursor
    } while (cursor)
  }
  return { tools, resources, prompts }
}

export function resourceInfo(r: SdkResource, server: string): McpResourceInfo {
  return { server, uri: r.uri, name: r.name, description: r.description, mimeType: r.mimeType, template: false }
}

export function promptInfo(p: SdkPrompt, server: string): McpPromptInfo {
  return { server, name: p.name, description: p.description, arguments: p.arguments ?? [] }
}

/** A tool with the hints we act on; `trusted`: the server comes from the user's own settings. */
export function toolInfo(t: SdkTool, server: string, trusted: boolean): McpToolInfo {
  const hints = t.annotations
  return {
    server,
    name: t.name,
    description: t.description ?? "",
    inputSchema: t.inputSchema as Record<string, unknown>,
    ...(hints && (hints.readOnlyHint !== undefined || hints.destructiveHint !== undefined)
      ? { annotations: { readOnlyHint: hints.readOnlyHint, destructiveHint: hints.destructiveHint } }
      : {}),
    trusted,
  }
}
