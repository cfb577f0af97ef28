import { z } from "zod"

/**
 * The settings that decide what runs without asking: the permission mode, auto-approval, the terminal's
 * allow and deny lists, the OS sandbox and how long an approval waits. Which source may loosen them: ./trust.ts.
 */

/**
 * Claude Code's permission modes, by name (issue 23). What each does to each kind of approval is one table:
 * approval/permission-modes.ts. Strictness order for the trust rule: config/trust.ts PERMISSION_MODE_ORDER.
 */
export const PermissionMode = z.enum(["default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"])
export type PermissionMode = z.infer<typeof PermissionMode>

/** agent.permissionMode. */
export const PermissionModeSetting = PermissionMode.default("default").describe(
  'How much the agent may do without asking (Claude Code\'s names): "default", "acceptEdits" (edits in the workspace run), "plan" (read-only until the user accepts a plan), "auto" (edits and sandboxed commands run; needs the OS sandbox), "dontAsk" (what would ask is refused), "bypassPermissions" (everything but deny lists and protected paths runs; trusted sources only). A workspace source may only choose a stricter mode.',
)

/** agent.autoApprove: what runs without asking, by kind of action. */
export const AutoApproveSettings = z
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
  .prefault({})

const prefixList = z.array(z.string())

/** agent.terminal: which commands run without asking, and how they run. */
export const TerminalSettings = z
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
  .prefault({})

/** A path on this machine in a setting: absolute, or "~/" for the user's home. */
const hostPath = z
  .string()
  .refine(
    (path) => path.startsWith("/") || path.startsWith("~/"),
    'must be absolute ("/srv/secrets") or start with "~/" ("~/.config/tool")',
  )

/** agent.sandbox: the OS sandbox commands run in (docs/sandbox.md). */
export const SandboxSettings = z
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
  .prefault({})

/** agent.approval: how long a question to the user waits. */
export const ApprovalSettings = z
  .object({
    timeoutSeconds: z
      .number()
      .positive()
      .default(600)
      .describe("Seconds an approval or question waits for the user before it counts as rejected (the model is told)."),
  })
  .prefault({})
