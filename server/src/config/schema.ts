import { z } from "zod"
import { HooksSetting } from "./schema-hooks"
import { DiagnosticsSettings, LanguageServersSetting, LspSettings } from "./schema-language"
import { McpServersSetting, McpSettings } from "./schema-mcp"
import { modelSettings } from "./schema-model"
import { ApprovalSettings, AutoApproveSettings, PermissionModeSetting, SandboxSettings, TerminalSettings } from "./schema-permissions"
import { BrowserSettings, CodebaseIndexSettings, DiffSettings, FilesSettings, SearchSettings, ToolsSettings } from "./schema-tools"

// The parts' types and schemas, re-exported so importers keep one path to the settings.
export { HookCommand, HookEventName, HookMatcher, HooksConfig } from "./schema-hooks"
export { type LanguageServersConfig, LanguageServersSchema } from "./schema-language"
export { McpServerConfig } from "./schema-mcp"
export { DEFAULT_MODEL, ModelProfile, ProviderName } from "./schema-model"
export { PermissionMode } from "./schema-permissions"

/**
 * The settings schema: one `agent` section, camelCase, nested by concern, units in names.
 * Every key has a default, so `SettingsSchema.parse({})` is the full default configuration.
 * Which source may set which key is decided in ./trust.ts, not here. The larger areas live in
 * ./schema-*.ts (model, permissions, hooks, tools, mcp, language); this file assembles them in the
 * order docs/settings.md and the VS Code manifest list the keys, and holds the small task-wide sections.
 */
export const SettingsSchema = z.object({
  ...modelSettings,
  timeouts: z
    .object({
      modelIdleSeconds: z
        .number()
        .positive()
        .default(120)
        .describe("A model stream that sends nothing for this long is aborted and retried like a network fault."),
      editorSeconds: z
        .number()
        .positive()
        .default(30)
        .describe(
          "Seconds each request to the editor (applyEdit, saveDocuments, showDocument, workspace/configuration, languageFeature) may take before it counts as failed.",
        ),
    })
    .prefault({}),
  modes: z
    .object({
      default: z
        .string()
        .min(1)
        .default("code")
        .describe("The mode a new task starts in (code, architect, ask, debug, orchestrator, or a custom mode's slug)."),
    })
    .prefault({}),
  permissionMode: PermissionModeSetting,
  hooks: HooksSetting,
  tools: ToolsSettings,
  prompt: z
    .object({
      customInstructions: z.string().default("").describe("Text added to the system prompt of every task (house rules, conventions)."),
    })
    .prefault({}),
  autoApprove: AutoApproveSettings,
  terminal: TerminalSettings,
  sandbox: SandboxSettings,
  approval: ApprovalSettings,
  limits: z
    .object({
      repeatedCalls: z
        .number()
        .int()
        .min(0)
        .default(3)
        .describe("How many identical tool calls in a row run before the task stops to ask you; 0 turns the check off."),
      consecutiveMistakes: z
        .number()
        .int()
        .min(1)
        .default(3)
        .describe("How many failed tool calls in a row before the task waits for your guidance."),
      requestsPerTask: z
        .number()
        .int()
        .positive()
        .default(200)
        .describe("The most model requests one task may make before it waits for your word."),
      costUsd: z
        .number()
        .positive()
        .optional()
        .describe("Estimated cost in US dollars after which a task waits for your word; unset means no limit."),
    })
    .prefault({}),
  context: z
    .object({
      condenseAtPercent: z
        .number()
        .min(10)
        .max(100)
        .default(80)
        .describe("Percent of the context window at which the conversation is summarized to make room."),
    })
    .prefault({}),
  files: FilesSettings,
  diff: DiffSettings,
  search: SearchSettings,
  mcpServers: McpServersSetting,
  browser: BrowserSettings,
  mcp: McpSettings,
  languageServers: LanguageServersSetting,
  lsp: LspSettings,
  diagnostics: DiagnosticsSettings,
  checkpoints: z
    .object({
      enabled: z
        .boolean()
        .default(true)
        .describe("Snapshot the workspace in a shadow git repository before each change, so it can be restored."),
      maxFileBytes: z
        .number()
        .int()
        .positive()
        .default(10 * 1024 * 1024)
        .describe("Files larger than this many bytes are left out of checkpoints."),
    })
    .prefault({}),
  log: z
    .object({
      level: z
        .enum(["error", "warn", "info", "debug"])
        .default("info")
        .describe("The least severe log messages the server writes (to the editor's log, and the log file if set)."),
      file: z.string().min(1).optional().describe("A file the server also appends its log to; unset means the editor's log only."),
    })
    .prefault({}),
  /** Where tasks, transcripts and checkpoints live; undefined = $XDG_STATE_HOME/agent-lsp. */
  stateDir: z
    .string()
    .min(1)
    .optional()
    .describe("Folder for task files, transcripts and checkpoints; unset means $XDG_STATE_HOME/agent-lsp."),
  codebaseIndex: CodebaseIndexSettings,
  /** Read by editor clients only (which server binary to start). */
  client: z
    .object({
      serverPath: z.string().optional().describe("Editor clients only: the agent-lsp server to start instead of the bundled one."),
    })
    .prefault({}),
})

export type Settings = z.infer<typeof SettingsSchema>

export function defaultSettings(): Settings {
  return SettingsSchema.parse({})
}
