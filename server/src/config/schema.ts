import { z } from "zod"

/**
 * The settings schema: one `agent` section, camelCase, nested by concern, units in names.
 * Every key has a default, so `SettingsSchema.parse({})` is the full default configuration.
 * Which source may set which key is decided in ./trust.ts, not here.
 */
/** A current Claude Sonnet (the SDK 1.12 examples use it; claude-sonnet-4-5 is deprecated from 2026-11-30). */
export const DEFAULT_MODEL = "claude-sonnet-5-5"

const prefixList = z.array(z.string())
/** A path on this machine in a setting: absolute, or "~/" for the user's home. */
const hostPath = z
  .string()
  .refine(
    (path) => path.startsWith("/") || path.startsWith("~/"),
    'must be absolute ("/srv/secrets") or start with "~/" ("~/.config/tool")',
  )

/** The model APIs agent-lsp speaks. */
export const ProviderName = z.enum(["anthropic", "openai"])

/** A named model set-up; each key it leaves out is taken from the top-level settings. */
export const ModelProfile = z.object({
  provider: ProviderName.optional().describe('"anthropic" or "openai"; unset = agent.provider.'),
  model: z.string().min(1).optional().describe("The model name; unset = agent.model (only when the profile keeps agent.provider)."),
  baseUrl: z
    .string()
    .url()
    .optional()
    .describe("Base URL of the API; unset = agent.baseUrl when the profile keeps agent.provider, else the provider's default."),
  maxTokens: z.number().int().positive().optional().describe("Most tokens per reply; unset = agent.maxTokens."),
  contextWindow: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Context window in tokens; unset = agent.contextWindow, else the model's."),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .optional()
    .describe(
      "Name of the environment variable holding this profile's API key (e.g. OPENROUTER_API_KEY), so each server gets its own key; unset = OPENAI_API_KEY or ANTHROPIC_API_KEY by provider. The variable is kept from every process the agent starts. Trusted sources only.",
    ),
})
export type ModelProfile = z.infer<typeof ModelProfile>

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

/** Language servers the agent starts itself, by LSP language id (agent.languageServers). */
export const LanguageServersSchema = z
  .record(
    z.string(),
    z.object({
      command: z
        .array(z.string().min(1))
        .min(1)
        .describe('The language server\'s command line, e.g. ["typescript-language-server", "--stdio"].'),
      extensions: z.array(z.string().min(1)).min(1).describe('File extensions it serves, e.g. [".ts", ".tsx"].'),
    }),
  )
  .default({})
export type LanguageServersConfig = z.infer<typeof LanguageServersSchema>

/**
 * Claude Code's permission modes, by name (issue 23). What each does to each kind of approval is one table:
 * approval/permission-modes.ts. Strictness order for the trust rule: config/trust.ts PERMISSION_MODE_ORDER.
 */
export const PermissionMode = z.enum(["default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"])
export type PermissionMode = z.infer<typeof PermissionMode>

/** Claude Code's hook events (https://docs.claude.com/en/docs/claude-code/hooks), by name. */
export const HookEventName = z.enum([
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "SessionStart",
  "SessionEnd",
  "Notification",
])
export type HookEventName = z.infer<typeof HookEventName>

/** One hook command, in Claude Code's shape. */
export const HookCommand = z.object({
  type: z.literal("command"),
  command: z.string().min(1).describe("A shell command line; it gets the event as JSON on stdin."),
  timeout: z.number().positive().max(3600).optional().describe("Seconds before the hook's process group is killed (default 60)."),
})
export type HookCommand = z.infer<typeof HookCommand>

/**
 * A matcher (an RE2 regular expression over tool names, or Notification's type, PreCompact's trigger,
 * SessionStart's source; `*` or empty for all) and the commands it starts.
 */
export const HookMatcher = z.object({
  matcher: z.string().optional(),
  hooks: z.array(HookCommand),
})
export type HookMatcher = z.infer<typeof HookMatcher>

export const HooksConfig = z.partialRecord(HookEventName, z.array(HookMatcher))
export type HooksConfig = z.infer<typeof HooksConfig>

export const SettingsSchema = z.object({
  provider: ProviderName.default("anthropic").describe(
    'Which API the agent talks to: "anthropic" (the Messages API) or "openai" (any OpenAI-compatible Chat Completions server: OpenAI, OpenRouter, Ollama, vLLM, LM Studio, llama.cpp). Read only from trusted sources.',
  ),
  model: z
    .string()
    .min(1)
    .default(DEFAULT_MODEL)
    .describe(
      "The model name, passed to the provider as given (e.g. claude-sonnet-5-5, gpt-4.1, openai/gpt-4o, qwen2.5-coder:14b). Read only from trusted sources.",
    ),
  maxTokens: z
    .number()
    .int()
    .positive()
    .default(8192)
    .describe("Most tokens the model may write in one reply (capped at the model's own limit where agent-lsp knows it)."),
  baseUrl: z
    .string()
    .url()
    .optional()
    .describe(
      "Base URL of the provider's API; unset = ANTHROPIC_BASE_URL or OPENAI_BASE_URL, else the official API (e.g. http://localhost:11434/v1 for Ollama). Read only from trusted sources.",
    ),
  contextWindow: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "The model's context window in tokens, for condensing; unset = the model's from agent-lsp's table (required for models it does not know on the openai provider).",
    ),
  profiles: z
    .record(z.string(), ModelProfile)
    .default({})
    .describe(
      "Named model set-ups that modes can use (agent.modeProfiles); a profile inherits the top-level settings it does not set. Read only from trusted sources.",
    ),
  modeProfiles: z
    .record(z.string(), z.string().min(1))
    .default({})
    .describe(
      'Which profile each mode uses, by mode slug (e.g. {"architect": "strong", "code": "cheap"}); other modes use the top-level settings. Read only from trusted sources.',
    ),
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
  permissionMode: PermissionMode.default("default").describe(
    'How much the agent may do without asking (Claude Code\'s names): "default", "acceptEdits" (edits in the workspace run), "plan" (read-only until the user accepts a plan), "auto" (edits and sandboxed commands run; needs the OS sandbox), "dontAsk" (what would ask is refused), "bypassPermissions" (everything but deny lists and protected paths runs; trusted sources only). A workspace source may only choose a stricter mode.',
  ),
  hooks: HooksConfig.default({}).describe(
    'Programs run at events of a task, in Claude Code\'s shape: {"PostToolUse": [{"matcher": "write_to_file|apply_diff", "hooks": [{"type": "command", "command": "…", "timeout": 60}]}]}. Trusted sources only.',
  ),
  tools: z
    .object({
      disabled: z.array(z.string()).default([]).describe("Tools the model is never offered nor allowed to run, in any mode."),
      enabled: z
        .array(z.string())
        .default([])
        .describe("Optional tools to offer besides the defaults (search_replace, edit_file, apply_patch)."),
    })
    .prefault({}),
  prompt: z
    .object({
      customInstructions: z.string().default("").describe("Text added to the system prompt of every task (house rules, conventions)."),
    })
    .prefault({}),
  autoApprove: z
    .object({
      read: z.boolean().default(true).describe("Run read-only tools (read, list, search) inside the workspace without asking."),
      write: z.boolean().default(false).describe("Apply file edits without asking (the diff is still shown in the transcript)."),
      modeSwitch: z.boolean().default(false).describe("Let the agent switch the task's mode without asking."),
      subtasks: z.boolean().default(false).describe("Let the agent start subtasks without asking."),
      mcp: z.boolean().default(false).describe("Call MCP server tools without asking (a server's alwaysAllow list applies regardless)."),
      browser: z.boolean().default(false).describe("Open pages with browser_action (launch) without asking."),
      sandboxedCommands: z
        .boolean()
        .default(false)
        .describe(
          "Run commands without asking when the OS sandbox holds them (docs/sandbox.md): the terminal allow and deny lists still apply first, and a command that writes outside the workspace, writes a protected file or cannot be read exactly still asks. Trusted sources only.",
        ),
    })
    .prefault({}),
  terminal: z
    .object({
      allow: prefixList.default([]).describe("Command prefixes that run without asking (every simple command of a line must match one)."),
      deny: prefixList.default([]).describe("Command prefixes that are never run, even when allowed or approved."),
      /** Hard limit per command; 0 = none. */
      timeoutSeconds: z.number().min(0).default(0).describe("Seconds after which a running command is killed; 0 means no limit."),
      outputLines: z
        .number()
        .int()
        .positive()
        .default(500)
        .describe("Lines of a command's output the model sees (the middle is cut; the whole output is kept in a file)."),
      shell: z
        .enum(["sh", "bash"])
        .default("bash")
        .describe(
          "The shell that runs commands: bash (default, `/bin/bash --noprofile --norc`, the language the approval checks read) or /bin/sh (then bash-only syntax asks); never $SHELL, whose syntax (zsh, fish) the approval checks cannot read.",
        ),
    })
    .prefault({}),
  sandbox: z
    .object({
      mode: z
        .enum(["required", "off"])
        .default("required")
        .describe(
          'The OS sandbox every command runs in (bubblewrap, Linux): "required" runs each command inside it, and where it cannot start every command asks; "off" runs commands unsandboxed (each asks unless agent.terminal.allow covers it). "off" is read from trusted sources only; a workspace may only set "required".',
        ),
      network: z
        .object({
          allowedHosts: z
            .array(z.string().min(1))
            .default([])
            .describe(
              'Hosts sandboxed commands reach without asking, through the agent\'s proxy ("registry.npmjs.org", "*.github.com"); any other host asks the user the first time a command wants it. Trusted sources only.',
            ),
        })
        .prefault({}),
      hiddenPaths: z
        .array(hostPath)
        .default([])
        .describe(
          'More paths every command finds empty, beside the credential, browser and history paths hidden by default (docs/sandbox.md): absolute, or "~/" for the home ("~/.config/mytool/token", "/srv/secrets"). A folder shows as an empty folder, a file as an empty read-only file. Trusted sources only; inside the workspace, .rooignore does the same.',
        ),
      visiblePaths: z
        .array(hostPath)
        .default([])
        .describe(
          'Paths of the ones hidden by default that commands may read after all, written as docs/sandbox.md lists them ("~/.m2/settings.xml" for a build that needs its mirrors, "~/.npmrc" for a private registry). Trusted sources only; the agent-lsp configuration and state folders stay hidden.',
        ),
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
  files: z
    .object({
      readOutsideWorkspace: z
        .boolean()
        .default(false)
        .describe("Let read-only tools read files outside the workspace folders (writing there is never allowed)."),
      listLimit: z.number().int().positive().default(200).describe("The most entries one file listing returns to the model."),
      maxReadBytes: z
        .number()
        .int()
        .positive()
        .default(1024 * 1024)
        .describe("The largest file, in bytes, the agent reads whole; larger files must be read by line ranges."),
    })
    .prefault({}),
  diff: z
    .object({
      fuzzyThreshold: z
        .number()
        .min(0.5)
        .max(1)
        .default(1.0)
        .describe("How similar (0.5-1) an edit's search text must be to the file's text; 1 means an exact match."),
    })
    .prefault({}),
  search: z
    .object({
      ripgrepPath: z
        .string()
        .min(1)
        .optional()
        .describe("Path of the rg program used for searching; unset means the bundled ripgrep, else rg on PATH."),
    })
    .prefault({}),
  mcpServers: z
    .record(z.string(), McpServerConfig)
    .default({})
    .describe("MCP servers by name, as in Roo-Code's mcp.json: { command, args, env } or { type, url, headers }."),
  browser: z
    .object({
      executablePath: z
        .string()
        .min(1)
        .optional()
        .describe("Chrome/Chromium binary for browser_action; default: chromium, chromium-browser or google-chrome on PATH."),
      viewport: z
        .string()
        .regex(/^\d{3,4}x\d{3,4}$/, 'a size "WxH", e.g. "900x600"')
        .default("900x600")
        .describe('Viewport of browser_action screenshots, "WxH" in CSS pixels (device scale factor 1).'),
      remoteUrl: z
        .string()
        .url()
        .optional()
        .describe("Attach browser_action to a running browser over CDP (http://host:port or ws://...) instead of starting one."),
    })
    .prefault({}),
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
  languageServers: LanguageServersSchema.describe(
    "Language servers the agent starts itself, by LSP language id: they check edited files (diagnostics) and answer the lsp and rename_symbol tools for editors that do not answer agent/diagnostics or agent/languageFeature, and for the ACP and headless fronts. Each starts at its language's first use and stops when idle. Trusted sources only: they are programs to run.",
  ),
  lsp: z
    .object({
      maxResults: z
        .number()
        .int()
        .min(1)
        .max(500)
        .default(50)
        .describe("Most locations or symbols one lsp tool call lists (the rest are counted)."),
      serverIdleSeconds: z
        .number()
        .positive()
        .default(300)
        .describe("A language server the agent started is shut down after this long without a request."),
      timeoutSeconds: z
        .number()
        .positive()
        .default(20)
        .describe(
          "The longest wait for a language server the agent started to answer one lsp or rename_symbol request, its start included.",
        ),
    })
    .prefault({}),
  diagnostics: z
    .object({
      enabled: z
        .boolean()
        .default(true)
        .describe(
          "Tell the model about problems (type errors, lint errors) that an edit introduced, when a source of diagnostics exists: the editor's own (agent/diagnostics) or a language server configured in agent.languageServers.",
        ),
      languageServers: LanguageServersSchema.describe(
        "Deprecated: the old name of agent.languageServers, still read (agent.languageServers wins for a language both name). Trusted sources only.",
      ),
      minSeverity: z
        .enum(["error", "warning"])
        .default("error")
        .describe("The least severe new problem that is reported to the model after an edit."),
      settleMs: z
        .number()
        .int()
        .min(0)
        .default(1000)
        .describe(
          "How long after an edit the editor's diagnostics are read (agent/diagnostics), so its language server has re-checked the file.",
        ),
      timeoutSeconds: z
        .number()
        .positive()
        .default(15)
        .describe(
          "The longest wait for a language server the agent started to report a file's problems (a cold TypeScript server takes 5-8 s for its first file).",
        ),
    })
    .prefault({}),
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
  codebaseIndex: z
    .object({
      enabled: z
        .boolean()
        .default(true)
        .describe(
          "Index the workspace in the background (no set-up needed) so codebase_search can find code by meaning; false turns the index and the tool off.",
        ),
      maxResults: z.number().int().min(1).max(50).default(10).describe("Most results one codebase_search call returns."),
      embedder: z
        .object({
          provider: z.literal("openai-compatible").describe("The embeddings API kind; only openai-compatible today."),
          baseUrl: z.string().url().describe("The embeddings API's base URL including its version, e.g. http://localhost:11434/v1."),
          model: z.string().min(1).describe("The embedding model's name, e.g. text-embedding-3-small or nomic-embed-text."),
          dimensions: z
            .number()
            .int()
            .positive()
            .optional()
            .describe("Vector size to request, for models that can shorten their vectors; unset means the model's own."),
        })
        .optional()
        .describe(
          "An OpenAI-compatible /embeddings endpoint (OpenAI, Ollama, LM Studio, vLLM, llama.cpp): baseUrl includes the version, e.g. http://localhost:11434/v1. With it, search ranks by vectors and words together. Trusted sources only.",
        ),
      qdrantUrl: z
        .string()
        .url()
        .optional()
        .describe(
          "Store the vectors in this Qdrant server (shareable by a team) instead of the embedded LanceDB; key from QDRANT_API_KEY. Trusted sources only.",
        ),
      apiKeyEnv: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
        .optional()
        .describe("Name of the environment variable holding the embedder's API key (default OPENAI_API_KEY). Trusted sources only."),
    })
    .prefault({}),
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
