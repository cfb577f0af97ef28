/** What `agent-lsp run` may auto-approve; anything else that needs approval is refused. */
export const APPROVAL_KINDS = ["read", "write", "command", "mcp", "browser"] as const
export type ApprovalKind = (typeof APPROVAL_KINDS)[number]

/** Claude Code's permission modes, as --permission-mode takes them. */
export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"] as const
export type PermissionModeArg = (typeof PERMISSION_MODES)[number]

/** Parsed `agent-lsp run` arguments. */
export interface RunArgs {
  mode?: string
  permissionMode?: PermissionModeArg
  autoApprove: Set<ApprovalKind>
  json: boolean
  model?: string
  /** agent.provider for this run: "anthropic" or "openai". */
  provider?: string
  /** agent.baseUrl for this run. */
  baseUrl?: string
  /** agent.contextWindow for this run (tokens). */
  contextWindow?: number
  /** The task text; undefined = read it from stdin. */
  task?: string
}

export type ParsedRunArgs = { kind: "run"; args: RunArgs } | { kind: "help" } | { kind: "usageError"; message: string }

export const RUN_USAGE = `Usage: agent-lsp run [options] ["task"]

Runs one task in the current directory (the workspace) without an editor, then exits.
The task comes from the argument, or from standard input when there is none.

Options:
  --mode M              start in mode M (code, architect, ask, debug, orchestrator, or a custom mode)
  --auto-approve LIST   approve these without asking, comma-separated: read, write, command, mcp,
                        browser, or all. Reads are approved by default (agent.autoApprove.read);
                        "command" approves every command line the parser understands (agent.terminal.deny
                        still refuses). Mode switches and subtasks are always approved.
                        Everything else that needs approval is refused and the model is told why.
  --permission-mode M   default, acceptEdits, plan, auto, dontAsk or bypassPermissions (agent.permissionMode;
                        docs/permission-modes.md). Without the flag: agent.permissionMode, except that a
                        "default" there becomes dontAsk when standard input is not a terminal (CI), so the
                        model hears at once that nobody is asked. Nobody is ever asked here: what would ask
                        is refused either way.
  --json                write one JSON object per line on stdout: {"type":"event",...} for each task
                        event, then {"type":"result",...}; nothing else goes to stdout
  --model M             use model M (agent.model)
  --provider P          use provider P: anthropic or openai (agent.provider; openai covers any
                        OpenAI-compatible server)
  --base-url URL        send model requests to URL (agent.baseUrl), e.g. http://localhost:11434/v1
  --context-window N    the model's context window in tokens (agent.contextWindow); needed for a
                        model agent-lsp does not know, e.g. a local one
  -h, --help            print this help

Output: the assistant's text and each tool call stream to stderr; the final attempt_completion
result is printed on stdout. Questions the model asks get "no user is present, decide yourself"
(or the first suggested answer); a limit (mistakes, repetition, requests, cost) stops the run.
Settings come from the global settings file (agent-lsp --help) and these flags.

Exit status:
  0    the task completed
  1    the task failed (model error, a limit reached, approvals refused too often, cancelled)
  2    usage error (unknown flag, missing value, no task)
  3    your UserPromptSubmit hook blocked the task: nothing was sent to the model (its reason on stderr)
  130  interrupted (Ctrl-C / SIGINT): the task is cancelled and its commands stopped`

/** Parses the words after `run`. */
export function parseRunArgs(argv: readonly string[]): ParsedRunArgs {
  const args: RunArgs = { autoApprove: new Set(), json: false }
  const words: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined]
    const value = (): string | undefined => inline ?? argv[++i]
    switch (flag) {
      case "-h":
      case "--help":
        return { kind: "help" }
      case "--json":
        args.json = true
        break
      case "--mode":
      case "--model":
      case "--provider":
      case "--base-url":
      case "--context-window":
      case "--permission-mode":
      case "--auto-approve": {
        const v = value()
        if (v === undefined || v === "" || v.startsWith("--")) return { kind: "usageError", message: `${flag} needs a value.` }
        if (flag === "--mode") args.mode = v
        else if (flag === "--model") args.model = v
        else if (flag === "--provider") {
          if (v !== "anthropic" && v !== "openai")
            return { kind: "usageError", message: `--provider: unknown provider "${v}"; use anthropic or openai.` }
          args.provider = v
        } else if (flag === "--base-url") {
          if (!URL.canParse(v)) return { kind: "usageError", message: `--base-url: "${v}" is not a URL (e.g. http://localhost:11434/v1).` }
          if (!/^https?:$/.test(new URL(v).protocol))
            return { kind: "usageError", message: `--base-url: "${v}" is not an http or https URL (e.g. http://localhost:11434/v1).` }
          args.baseUrl = v
        } else if (flag === "--context-window") {
          const n = Number(v)
          if (!Number.isInteger(n) || n <= 0)
            return { kind: "usageError", message: `--context-window: "${v}" is not a positive whole number of tokens.` }
          args.contextWindow = n
        } else if (flag === "--permission-mode") {
          if (!(PERMISSION_MODES as readonly string[]).includes(v))
            return { kind: "usageError", message: `--permission-mode: unknown mode "${v}"; use ${PERMISSION_MODES.join(", ")}.` }
          args.permissionMode = v as PermissionModeArg
        } else {
          const problem = addApprovals(args.autoApprove, v)
          if (problem) return { kind: "usageError", message: problem }
        }
        break
      }
      case "--":
        words.push(...argv.slice(i + 1))
        i = argv.length
        break
      default:
        if (arg.startsWith("-") && arg !== "-") return { kind: "usageError", message: `unknown option "${arg}".` }
        words.push(arg)
    }
  }
  if (words.length > 1) return { kind: "usageError", message: `give the task as one argument (quote it); got ${words.length} words.` }
  if (words[0] !== undefined && words[0] !== "-") args.task = words[0]
  return { kind: "run", args }
}

function addApprovals(into: Set<ApprovalKind>, list: string): string | undefined {
  for (const raw of list.split(",")) {
    const kind = raw.trim()
    if (kind === "all") APPROVAL_KINDS.forEach((k) => into.add(k))
    else if ((APPROVAL_KINDS as readonly string[]).includes(kind)) into.add(kind as ApprovalKind)
    else return `--auto-approve: unknown kind "${kind}"; use ${APPROVAL_KINDS.join(", ")} or all.`
  }
  return undefined
}

/** The trusted settings the flags stand for (a CLI flag is the user's own word, like initializationOptions). */
export function settingsFromArgs(args: RunArgs): Record<string, unknown> {
  const auto = args.autoApprove
  return {
    ...(args.model ? { model: args.model } : {}),
    ...(args.provider ? { provider: args.provider } : {}),
    ...(args.baseUrl ? { baseUrl: args.baseUrl } : {}),
    ...(args.contextWindow ? { contextWindow: args.contextWindow } : {}),
    ...(args.permissionMode ? { permissionMode: args.permissionMode } : {}),
    autoApprove: {
      ...(auto.has("read") ? { read: true } : {}),
      write: auto.has("write"),
      mcp: auto.has("mcp"),
      browser: auto.has("browser"),
      // Nobody is there to ask; switching modes and starting subtasks change nothing outside the task.
      modeSwitch: true,
      subtasks: true,
    },
    // "*" approves what the command parser understands; what it cannot understand still asks (and is refused).
    ...(auto.has("command") ? { terminal: { allow: ["*"] } } : {}),
  }
}
