import { z } from "zod"

/**
 * The settings schema: one `agent` section, camelCase, nested by concern, units in names.
 * Every key has a default, so `SettingsSchema.parse({})` is the full default configuration.
 * Which source may set which key is decided in ./trust.ts, not here.
 */
/** A current Claude Sonnet (the SDK 1.12 examples use it; claude-sonnet-4-5 is deprecated from 2026-11-30). */
export const DEFAULT_MODEL = "claude-sonnet-5-5"

const prefixList = z.array(z.string())

export const McpServerConfig = z.union([
  z.object({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    disabled: z.boolean().optional(),
    alwaysAllow: z.array(z.string()).optional(),
    timeout: z.number().positive().optional(),
  }),
  z.object({
    type: z.enum(["streamable-http", "sse"]),
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).optional(),
    disabled: z.boolean().optional(),
    alwaysAllow: z.array(z.string()).optional(),
    timeout: z.number().positive().optional(),
  }),
])
export type McpServerConfig = z.infer<typeof McpServerConfig>

export const SettingsSchema = z.object({
  model: z.string().min(1).default(DEFAULT_MODEL),
  maxTokens: z.number().int().positive().default(8192),
  /** Base URL of the Messages API; undefined = SDK default (or ANTHROPIC_BASE_URL). Trusted sources only. */
  baseUrl: z.string().url().optional(),
  /** Context window in tokens; undefined = the model's. */
  contextWindow: z.number().int().positive().optional(),
  modes: z.object({ default: z.string().min(1).default("code") }).prefault({}),
  tools: z
    .object({ disabled: z.array(z.string()).default([]), enabled: z.array(z.string()).default([]) })
    .prefault({}),
  prompt: z.object({ customInstructions: z.string().default("") }).prefault({}),
  autoApprove: z
    .object({
      read: z.boolean().default(true),
      write: z.boolean().default(false),
      modeSwitch: z.boolean().default(false),
      subtasks: z.boolean().default(false),
      mcp: z.boolean().default(false),
    })
    .prefault({}),
  terminal: z
    .object({
      allow: prefixList.default([]),
      deny: prefixList.default([]),
      /** Hard limit per command; 0 = none. */
      timeoutSeconds: z.number().min(0).default(0),
      outputLines: z.number().int().positive().default(500),
    })
    .prefault({}),
  approval: z
    .object({
      timeoutSeconds: z
        .number()
        .positive()
        .default(600)
        .describe("Seconds an approval or question waits for the user before it counts as rejected (the model is told)."),
    })
    .prefault({}),
  timeouts: z
    .object({
      editorSeconds: z
        .number()
        .positive()
        .default(30)
        .describe("Seconds each request to the editor (applyEdit, saveDocuments, showDocument, workspace/configuration) may take before it counts as failed."),
    })
    .prefault({}),
  limits: z
    .object({
      repeatedCalls: z.number().int().min(0).default(3),
      consecutiveMistakes: z.number().int().min(1).default(3),
      requestsPerTask: z.number().int().positive().default(200),
      costUsd: z.number().positive().optional(),
    })
    .prefault({}),
  context: z.object({ condenseAtPercent: z.number().min(10).max(100).default(80) }).prefault({}),
  files: z
    .object({
      readOutsideWorkspace: z.boolean().default(false),
      listLimit: z.number().int().positive().default(200),
      maxReadBytes: z.number().int().positive().default(1024 * 1024),
    })
    .prefault({}),
  diff: z.object({ fuzzyThreshold: z.number().min(0.5).max(1).default(1.0) }).prefault({}),
  search: z.object({ ripgrepPath: z.string().min(1).optional() }).prefault({}),
  mcpServers: z.record(z.string(), McpServerConfig).default({}),
  mcp: z
    .object({
      connectTimeoutSeconds: z
        .number()
        .positive()
        .default(10)
        .describe(
          "How long a task's first model request waits for the configured MCP servers to connect (after the trust question for a workspace .roo/mcp.json, which follows approval.timeoutSeconds). Servers not connected by then are left out of that request and named in the task.",
        ),
    })
    .prefault({}),
  checkpoints: z
    .object({ enabled: z.boolean().default(true), maxFileBytes: z.number().int().positive().default(10 * 1024 * 1024) })
    .prefault({}),
  log: z
    .object({ level: z.enum(["error", "warn", "info", "debug"]).default("info"), file: z.string().min(1).optional() })
    .prefault({}),
  /** Where tasks, transcripts and checkpoints live; undefined = $XDG_STATE_HOME/agent-lsp. */
  stateDir: z.string().min(1).optional(),
  /** Read by editor clients only (which server binary to start). */
  client: z.object({ serverPath: z.string().optional() }).prefault({}),
})

export type Settings = z.infer<typeof SettingsSchema>

export function defaultSettings(): Settings {
  return SettingsSchema.parse({})
}
