import type { McpCallAsker } from "./elicitation"

/**
 * The MCP hub as tools and the rest of the server see it. Types only: `tools/context.ts` exposes an
 * optional `mcp?: McpPort`, the core hands in the McpHub (./hub.ts), tests may hand in the hub or a fake.
 */

/** Status of one configured server, as `agent/listMcpServers` reports it. */
export type McpServerStatus = "connecting" | "connected" | "error" | "disabled" | "untrusted"

/** One entry of the `agent/listMcpServers` result. */
export interface McpServerInfo {
  name: string
  source: "global" | "workspace"
  status: McpServerStatus
  error?: string
  tools: string[]
  resources: number
}

/** A tool a connected server offers. */
export interface McpToolInfo {
  server: string
  name: string
  description: string
  /** The tool's JSON Schema for its arguments, as the server sent it. */
  inputSchema: Record<string, unknown>
  /** The server's hints about the tool (MCP tool annotations); hints only, see ./auto-approve.ts. */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean }
  /** The server comes from the user's own settings (not a workspace `.roo/mcp.json`), so its hints may loosen approval. */
  trusted: boolean
}

/** A resource or resource template a connected server offers. */
export interface McpResourceInfo {
  server: string
  /** The URI, or the URI template for templates. */
  uri: string
  name: string
  description?: string
  mimeType?: string
  template: boolean
}

/** A prompt a connected server offers (prompts/list): offered to the user as `/mcp.<server>.<prompt>`. */
export interface McpPromptInfo {
  server: string
  name: string
  description?: string
  arguments: { name: string; description?: string; required?: boolean }[]
}

/** prompts/get as text for the user's message, or why it failed (actionable, for the user). */
export type McpPromptText = { ok: true; text: string } | { ok: false; error: string }

/** A content block of a call result, shaped like the tools' ToolResultContent. */
export type McpContent =
  | { type: "text"; text: string }
  | { type: "image"; mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp"; base64: string }

/** What a tool call or resource read produced, shaped like the tools' ToolResult. */
export interface McpCallResult {
  isError: boolean
  content: McpContent[]
  summary: string
  /** Resources the result names (resource links and embedded resources), by URI: the task may read them next. */
  resourceLinks?: string[]
  /** Content the server meant for the user alone (`audience: ["user"]`): shown in the front, never sent to the model. */
  forUser?: string
}

export interface McpPort {
  /** Servers that are connected now (their tools can be offered and called). */
  connectedServerNames(): string[]
  /** Every configured server with its state. */
  listServers(): McpServerInfo[]
  /** Tools of connected servers. */
  listTools(): McpToolInfo[]
  /** Resources and templates of connected servers. */
  listResources(): McpResourceInfo[]
  /** Prompts of connected servers. */
  listPrompts(): McpPromptInfo[]
  /** Gets a prompt with its arguments as text; never throws. */
  getPrompt(server: string, prompt: string, args: Record<string, string>, signal?: AbortSignal): Promise<McpPromptText>
  /** The server's `alwaysAllow` list from its (trusted) configuration; empty when unknown. */
  alwaysAllow(server: string): readonly string[]
  /** Calls a tool; never throws: timeouts, crashes and MCP errors are error results. */
  callTool(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal, asker?: McpCallAsker): Promise<McpCallResult>
  /** Reads a resource; never throws. */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpCallResult>
  /** Subscribes to a resource's updates (shared between tasks); false where the server cannot. Never throws. */
  subscribeResource?(server: string, uri: string): Promise<boolean>
  /** Ends one subscribeResource; the server is unsubscribed with the last one. */
  unsubscribeResource?(server: string, uri: string): Promise<void>
  /** Calls `listener` on each notifications/resources/updated; returns the way to stop. */
  onResourceUpdated?(listener: (server: string, uri: string) => void): () => void
}

/**
 * The part of the tools' AskPort (tools/context.ts) the hub needs to ask whether a workspace
 * `.roo/mcp.json` may start its servers. Declared here structurally because mcp/ may not import tools/;
 * The core passes the front's AskPort as is.
 */
export interface McpTrustAsker {
  approve(
    request: {
      taskId: string
      callId: string
      tool: string
      title: string
      detail: string
      command?: string
      options: { optionId: string; label: string; kind: "allow_once" | "allow_always" | "reject_once" | "reject_always" }[]
    },
    signal: AbortSignal,
  ): Promise<{ decision: "answered"; kind: string } | { decision: "noAnswer" }>
}
