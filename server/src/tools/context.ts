import type { PermissionMode, Settings } from "../config/schema"
import type { ApprovalOption, ApprovalOptionKind, LanguageOperation, TaskUpdate, Todo } from "@agent-lsp/protocol"
import type { McpSampler } from "../mcp/sampling"

export type { McpSampler }
import type { McpPort } from "../mcp/port"
import { McpResourceWatch } from "../mcp/resource-watch"
export { McpResourceWatch }
import type { CodebaseIndexPort } from "../index/types"
import type { BackgroundCommands } from "../terminal/background"
import type { CommandOptions, RunningCommand } from "../terminal/runner"
import type { TaskBrowsers } from "../browser/registry"

/**
 * The ports through which a tool reaches the world. Each front implements EditorPort and AskPort over its
 * protocol (fronts/lsp, fronts/acp, fronts/cli); tests hand in the fakes of test/support/. A tool never imports a
 * front, core/, task/ or pipeline/.
 */

/** A document the editor has open, as it last reported it (didOpen/didChange). */
export interface OpenDocument {
  /** Absolute file-system path. */
  path: string
  uri: string
  version: number
  text: string
  /**
   * True when the user changed the buffer since it was last saved, by edits that were not the agent's.
   * The server never writes the disk behind such changes.
   */
  dirtyByUser: boolean
}

/** A whole-file replacement the editor should make. */
export interface EditRequest {
  /** Absolute path of the file. */
  path: string
  /** The full text the file should have afterwards. */
  newText: string
  /** The version the edit was computed against (open documents only). */
  version?: number
  /** True when the file does not exist yet (sent as CreateFile + insert). */
  create?: boolean
  /** Shown by editors that label undo steps. */
  label?: string
}

export type EditOutcome =
  | { ok: true }
  /** `reason` is written for the model: what happened and that the disk is untouched. */
  | { ok: false; reason: string }

/** The editor: open buffers, edits the user can see and undo, saving. */
export interface EditorPort {
  /** What the client can do (from ClientFeatures). */
  readonly supportsApplyEdit: boolean
  readonly supportsSaveDocuments: boolean
  /** The open buffer for an absolute path, or undefined when the editor does not have it open. */
  openDocument(path: string): OpenDocument | undefined
  /**
   * Sends workspace/applyEdit and resolves once the editor's didChange shows the buffer holds `newText`
   * (applied:true alone is not trusted). Never writes the disk.
   */
  applyEdit(edit: EditRequest): Promise<EditOutcome>
  /** agent/saveDocuments: asks the editor to save these absolute paths; resolves with the ones it saved. */
  saveDocuments(paths: string[]): Promise<string[]>
  /**
   * Present when the editor takes several files' edits as one workspace/applyEdit (one step the user can
   * review and undo together); each is version-checked and confirmed like applyEdit. All or nothing is
   * the editor's promise; on failure the disk is untouched.
   */
  applyEdits?(edits: EditRequest[]): Promise<EditOutcome>
  /**
   * Present when the editor serves file contents itself (ACP `fs/read_text_file`): every read, including the
   * text an edit is computed from and checked against, goes through it first; undefined = the editor has no
   * such file, read the disk. The LSP front leaves it out (its open buffers arrive by didOpen/didChange).
   */
  readDocument?(path: string): Promise<OpenDocument | undefined>
  /**
   * Present when the editor writes files itself (ACP `fs/write_text_file`): every edit, new files included,
   * goes through it instead of applyEdit or the disk, and the editor is responsible for saving.
   */
  writeDocument?(path: string, text: string): Promise<EditOutcome>
}

/**
 * An edit that landed, for fronts that show diffs (ACP `tool_call_update` content). Not part of the LSP
 * wire: the LSP front already sent the edit as workspace/applyEdit and drops this event.
 */
export interface FileEditedEvent {
  kind: "fileEdited"
  callId: string
  /** Absolute path. */
  path: string
  /** undefined = the file was created. */
  oldText?: string
  newText: string
}

/**
 * What approving a call means to the auto-approval policy (a prepared call's preview carries it). Here,
 * beside the other port types, so approval/ can use it without importing the tool definitions.
 */
export type ApprovalSubject =
  | { kind: "none" }
  | { kind: "read"; paths: string[]; outsideWorkspace?: boolean }
  /** `realPaths`: where the writes land with symlinks resolved; the protected-path check looks at both. */
  | { kind: "write"; paths: string[]; realPaths?: string[] }
  /**
   * A command line; `cwd` as shown, `absoluteCwd` to resolve redirection targets against, `writePaths` the real
   * paths (symlinks resolved) of the files its redirections write, as the tool found them; `uncheckedReads`
   * file arguments the `.rooignore` check could not resolve (after `cd $X`): such a line always asks.
   */
  | {
      kind: "command"
      command: string
      cwd: string
      absoluteCwd?: string
      writePaths?: string[]
      uncheckedReads?: string[]
      /** Whether the OS sandbox can hold this command (the tool asks sandbox/; the policy fails closed without it). */
      sandbox?: { available: boolean; reason?: string }
      /**
       * Set by the approval step when the user approved a command that writes outside the sandbox's writable
       * roots (outside the workspace, or a protected path): exactly these paths are bound writable for it.
       */
      grantedWritePaths?: string[]
      /** The shell that will run the line (its reading differs: see shell/ ParsedCommandLine.bashOnly); default bash. */
      dialect?: "bash" | "sh"
      /** Why this line must ask whatever the lists say (bash missing, a dynamic word that may name an ignored file…). */
      askReasons?: string[]
    }
  /**
   * An MCP call. `readOnly`: a trusted server (the user's own settings) marks the tool read-only, so
   * autoApprove.read covers it; `destructive`: the server marks it destructive, so settings never
   * auto-approve it (see mcp/auto-approve.ts).
   */
  | { kind: "mcp"; server: string; tool: string; readOnly?: true; destructive?: true }
  | { kind: "modeSwitch"; mode: string }
  | { kind: "subtask"; mode: string }
  /**
   * Opening a page in the browser (browser_action launch). `sandbox`: whether the OS sandbox can hold the
   * browser, set when agent.sandbox.mode is "required" (the policy then fails closed without it).
   */
  | { kind: "browser"; url: string; sandbox?: { available: boolean; reason?: string } }

/** What the user is asked to approve: the preview of a prepared tool call. */
export interface ApprovalRequest {
  taskId: string
  callId: string
  tool: string
  title: string
  detail: string
  diff?: string
  command?: string
  proposedText?: string
  /** The edit's files, whole, before and after (fronts with a diff view: ACP's diff content). */
  files?: EditedFile[]
  options: ApprovalOption[]
}

/** One file an edit would change: its absolute path, its text now (absent: a new file) and after. */
export interface EditedFile {
  path: string
  oldText?: string
  newText: string
}

export type ApprovalAnswer =
  | {
      decision: "answered"
      optionId: string
      kind: ApprovalOptionKind
      feedback?: string
      editedText?: string
      /** Who chose: a policy answering for a front with nobody to ask (headless run), not the user. */
      answeredBy?: "policy"
    }
  /** No consent: the client dismissed, errored, timed out, the task was cancelled, or there is no way to ask. */
  | { decision: "noAnswer"; reason: "dismissed" | "timeout" | "cancelled" | "unavailable" | "error"; message?: string }

export interface QuestionRequest {
  taskId: string
  question: string
  suggestions: { text: string; mode?: string }[]
  /**
   * Set when the task asks whether to go on past a limit with Continue / Stop: a front with nobody to ask
   * (headless) answers Stop instead of guessing; one that ends the turn to ask (ACP) names `requests` as
   * its stop reason.
   */
  limit?: "requests" | "cost" | "mistakes" | "repetition"
}

export type QuestionAnswer =
  | { decision: "answered"; answer: string }
  /** `waitForMessage`: the question was announced; the answer will come as agent/sendMessage. */
  | { decision: "noAnswer"; reason: "dismissed" | "timeout" | "cancelled" | "unavailable" | "waitForMessage" | "error" }

/** The user: approvals (used by the pipeline only) and questions (ask_followup_question and limits). */
export interface AskPort {
  /**
   * Nobody is present to answer (the headless `agent-lsp run`): the port answers at once from the policy,
   * so nothing waits for the user and no Notification hook fires.
   */
  readonly unattended?: boolean
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>
  ask(request: QuestionRequest, signal: AbortSignal): Promise<QuestionAnswer>
}

/** What the task lets its meta tools do (attempt_completion, switch_mode, new_task, update_todo_list…). */
export interface TaskControl {
  readonly taskId: string
  readonly mode: string
  /** Slugs of every known mode, for messages. */
  modeSlugs(): string[]
  switchMode(slug: string, reason: string): Promise<void>
  /** Sets the task's permission mode (exit_plan_mode, when the user accepts the plan). */
  setPermissionMode?(mode: PermissionMode): void
  setTodos(todos: Todo[]): void
  /** Starts a child task and resolves with its completion result (the parent is paused meanwhile). */
  startSubtask(mode: string, message: string, todos: Todo[] | undefined, signal: AbortSignal): Promise<string>
  /** Marks the task completed with this result (after the tool result is recorded). */
  complete(result: string): void
}

/** A problem a language server reports in a file, as the model reads it (1-based line and column). */
export interface Problem {
  line: number
  column: number
  severity: "error" | "warning" | "information" | "hint"
  message: string
  source?: string
  code?: string | number
}

/**
 * Problems in the files the agent edits, so an edit's result can name the problems it introduced: the
 * editor's own diagnostics (LSP agent/diagnostics) or language servers the agent starts itself.
 */
export interface DiagnosticsPort {
  /**
   * Before an edit of `path` (absolute; `text` is its content now, undefined for a new file): remembers
   * the problems it has now. Undefined when no source covers this file.
   */
  watch(path: string, text: string | undefined, signal: AbortSignal): Promise<DiagnosticsWatch | undefined>
  /**
   * The problems known now, for the environment details' "new errors": of `paths` (absolute; the files the
   * user has open or edited), plus every other file the source already tracks (a language server's
   * published files). Undefined when the source gave no answer in time.
   */
  current?(paths: readonly string[], signal: AbortSignal): Promise<FileProblems[] | undefined>
}

/** One file's problems (absolute path). */
export interface FileProblems {
  path: string
  problems: Problem[]
}

/** One file watched across one edit. */
export interface DiagnosticsWatch {
  /** The problems before the edit; undefined when the source gave none in time (then none can be told apart as new). */
  readonly before: Problem[] | undefined
  /** After the edit (the file now holds `text`): its problems, once the source has settled; undefined if it gave none in time. */
  after(text: string, signal: AbortSignal): Promise<Problem[] | undefined>
}

/** One question to a language server (the lsp tool, rename_symbol). Positions are LSP's: zero-based, UTF-16. */
export interface LanguageRequest {
  operation: LanguageOperation
  /** Absolute path of the file asked about (every operation but workspaceSymbol, where it picks the server). */
  path?: string
  position?: { line: number; character: number }
  query?: string
  newName?: string
}

export type LanguageAnswer =
  /** `result`: the language server's own LSP result (Location[], Hover, DocumentSymbol[], WorkspaceEdit, …). */
  | { kind: "answered"; result: unknown }
  /** No language server covers the file (or none is configured). */
  | { kind: "noServer" }
  /** `message` is written for the model: which server failed and how. */
  | { kind: "failed"; message: string }

/**
 * Language intelligence: the editor's language servers (LSP agent/languageFeature) or the ones the core
 * starts itself (agent.languageServers). Every answer comes within a bound.
 */
export interface LanguagePort {
  request(request: LanguageRequest, signal: AbortSignal): Promise<LanguageAnswer>
}

/**
 * Where command lines run: our own runner (terminal/local-terminal.ts: LSP, CLI, ACP without terminals) or
 * the editor's terminals (ACP `terminal/*`). Approval has happened before `start` is called; the port only
 * runs what it is given, with the same shell, working directory and limits.
 */
export interface TerminalPort {
  /** Starts `options.command`; `call` names the tool call it runs for (a front may show the terminal there). */
  start(options: CommandOptions, call: { taskId: string; callId: string }): RunningCommand
}

/** Everything a tool may use. Built per tool call by the task. */
export interface ToolContext {
  /** Workspace folders, absolute paths; the first is the default root. */
  readonly workspaceFolders: readonly string[]
  readonly settings: Settings
  readonly mode: string
  /** The task's permission mode (issue 23); absent = agent.permissionMode. */
  readonly permissionMode?: PermissionMode
  /** The task's file, for hooks (`transcript_path`). */
  readonly transcriptPath?: string
  readonly taskId: string
  readonly callId: string
  readonly editor: EditorPort
  readonly ask: AskPort
  readonly task: TaskControl
  /** Aborted when the task is cancelled. */
  readonly signal: AbortSignal
  /** Streams an update to the editor while the tool runs (e.g. commandOutput, fileEdited). */
  emit(update: TaskUpdate | FileEditedEvent): void
  /** The MCP hub (use_mcp_tool, access_mcp_resource, mcp--server--tool); absent when MCP is not set up. */
  readonly mcp?: McpPort
  /** The task's model for an MCP server's sampling request (asked first); absent: sampling is refused. */
  readonly sample?: McpSampler
  /** The task's watch on the MCP resources it keeps reading (subscriptions, update notices); absent without MCP. */
  readonly mcpResources?: McpResourceWatch
  /** The codebase index of each workspace folder (codebase_search); absent or empty when it is off. */
  readonly codebaseIndexes?: readonly CodebaseIndexPort[]
  /** Problems after edits; absent when no source is configured (or diagnostics.enabled is false). */
  readonly diagnostics?: DiagnosticsPort
  /** Language servers (lsp, rename_symbol); absent when no source exists (the tools then say so). */
  readonly language?: LanguagePort
  /** Where execute_command runs its command lines (the front's choice). */
  readonly terminal: TerminalPort
  /** Commands the model's timeout left running, of this task service (execute_command, read_command_output). */
  readonly background: BackgroundCommands
  /** The task service's browsers, one per task (browser_action). */
  readonly browsers: TaskBrowsers
}

/** What `available()` may look at: the configuration, not a particular call. */
export interface AvailabilityContext {
  readonly settings: Settings
  readonly workspaceFolders: readonly string[]
  /** Names of connected MCP servers (dynamic tools and use_mcp_tool need at least one). */
  readonly mcpServerNames: readonly string[]
  /** True when the codebase index is on (codebase_search): `codebaseIndex.enabled` and a workspace folder. */
  readonly hasCodebaseIndex: boolean
  /** True when a browser is configured (browser_action). */
  readonly hasBrowser: boolean
  /** The MCP hub, so dynamic MCP tools can see which tools a server offers now. */
  readonly mcp?: McpPort
}
