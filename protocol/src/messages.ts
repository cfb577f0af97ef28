import { z } from "zod"
import { AgentMethods } from "./names"
import {
  ApprovalOption,
  Diagnostic,
  ModeSummary,
  PermissionModeName,
  Position,
  Range,
  TaskStatus,
  TaskSummary,
  TaskUpdate,
  Todo,
  TranscriptEntry,
} from "./types"

/** One request or notification of the contract: its method name and the zod schemas of both ends. */
export interface MethodTriple<M extends string, P extends z.ZodType, R extends z.ZodType> {
  method: M
  params: P
  result: R
  direction: "clientToServer" | "serverToClient"
  kind: "request" | "notification"
  /** What the method does, one or two sentences (protocol/PROTOCOL.md is generated from it). */
  summary: string
}

function request<M extends string, P extends z.ZodType, R extends z.ZodType>(
  method: M,
  summary: string,
  params: P,
  result: R,
  direction: "clientToServer" | "serverToClient" = "clientToServer",
): MethodTriple<M, P, R> {
  return { method, params, result, direction, kind: "request", summary }
}

const Empty = z.object({})
const TaskId = z.string().min(1).describe("The task, as agent/newTask returned it.")

/**
 * A URI the server turns into a local path: a `file:` URI must name a local file (no host but `localhost`,
 * no encoded `/` or `\\`), so a bad one is InvalidParams at the dispatcher rather than a throw in a handler.
 */
export const LocalUri = z.string().superRefine((uri, ctx) => {
  if (!/^file:/i.test(uri)) return
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return ctx.addIssue({ code: "custom", message: "not a valid file URI" })
  }
  if (url.hostname !== "" && url.hostname !== "localhost")
    ctx.addIssue({ code: "custom", message: `a file URI must name a local file: host "${url.hostname}" is not allowed` })
  else if (/%2f|%5c/i.test(url.pathname))
    ctx.addIssue({ code: "custom", message: "a file URI must not hold an encoded / or \\ (%2F, %5C) in its path" })
})

/** A checkpoint id as agent/listCheckpoints gives it: a shadow-git commit id (hex), never a ref name or an option. */
export const CheckpointId = z.string().superRefine((id, ctx) => {
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(id))
    ctx.addIssue({
      code: "custom",
      message: `"${id.length > 80 ? `${id.slice(0, 80)}…` : id}" is not a checkpoint id: it is the 40 (or 64) hex digits agent/listCheckpoints gives`,
    })
})

// ---- client → server --------------------------------------------------------------

export const NewTask = request(
  AgentMethods.newTask,
  "Starts a task and answers at once with its id; the work streams as agent/taskUpdate (or the transcript document).",
  z.object({
    text: z.string().min(1, "text must not be empty").describe("What the agent should do, in the user's words."),
    mode: z.string().optional().describe("The mode slug to start in; default: the mode set with agent/setMode, else agent.modes.default."),
    permissionMode: PermissionModeName.optional().describe(
      "The permission mode to start in; default: the one set with agent/setPermissionMode, else agent.permissionMode.",
    ),
    context: z
      .array(
        z.object({
          uri: LocalUri.describe("A file URI."),
          range: Range.optional().describe("The selected range (LSP: end exclusive); whole file when absent."),
        }),
      )
      .optional()
      .describe("What the user pointed at: a selection is quoted from the open buffer into the task text."),
  }),
  z.object({ taskId: z.string().describe("The new task's id.") }),
)
export const SendMessage = request(
  AgentMethods.sendMessage,
  "Answers the task's open question, or continues a finished task with a new instruction.",
  z.object({ taskId: TaskId, text: z.string().describe("The user's message.") }),
  Empty,
)
export const CancelTask = request(
  AgentMethods.cancelTask,
  "Aborts the model stream, kills the running command's process group, rejects pending questions; the task becomes cancelled.",
  z.object({ taskId: TaskId }),
  Empty,
)
export const ResumeTask = request(
  AgentMethods.resumeTask,
  "Continues an interrupted or cancelled task.",
  z.object({ taskId: TaskId }),
  Empty,
)
export const Respond = request(
  AgentMethods.respond,
  "Answers a pending approval or question later (after a deferred answer, or one announced with window/showMessage); an error if none is pending.",
  z.object({
    requestId: z.string().min(1).describe("The requestId of the approval or question."),
    taskId: z
      .string()
      .min(1)
      .optional()
      .describe("The task the answer is meant for; when given, an answer to a request of another task is refused."),
    optionId: z.string().optional().describe("The chosen approval option (its optionId; a kind or label is accepted too)."),
    answer: z.string().optional().describe("The answer to a question."),
    feedback: z.string().optional().describe("Why the user rejected, passed to the model."),
    editedText: z.string().optional().describe("The file content as the user edited the proposal."),
  }),
  Empty,
)
export const ListTasks = request(
  AgentMethods.listTasks,
  "Lists the workspace's tasks, newest first.",
  Empty,
  z.object({ tasks: z.array(TaskSummary).describe("One summary per task.") }),
)
export const GetTask = request(
  AgentMethods.getTask,
  "A task's whole conversation as the editor shows it, with its todos (to fill a transcript after a restart).",
  z.object({ taskId: TaskId }),
  z.object({
    taskId: z.string().describe("The task."),
    title: z.string().describe("The first line of the task's text."),
    mode: z.string().describe("The mode it is in now."),
    permissionMode: PermissionModeName.optional().describe("Its permission mode now (absent for tasks stored before permission modes)."),
    status: TaskStatus.describe("The task's status now."),
    parentId: z.string().optional().describe("The parent task, for a subtask."),
    messages: z.array(TranscriptEntry).describe("The conversation, oldest first."),
    todos: z.array(Todo).describe("The task's todo list."),
  }),
)
export const ListModes = request(
  AgentMethods.listModes,
  "The modes a task can run in: built-in, global and the workspace's .roomodes.",
  Empty,
  z.object({ modes: z.array(ModeSummary).describe("Every mode."), defaultMode: z.string().describe("The mode a new task starts in.") }),
)
export const SetMode = request(
  AgentMethods.setMode,
  "Switches a task's mode; without taskId, sets the mode of the next task.",
  z.object({
    mode: z.string().min(1).describe("A mode slug from agent/listModes."),
    taskId: z.string().optional().describe("The task to switch; absent: the next task."),
  }),
  Empty,
)

export const SetPermissionMode = request(
  AgentMethods.setPermissionMode,
  "Sets a task's permission mode; without taskId, that of new tasks. Returns the mode in force.",
  z.object({
    mode: PermissionModeName.describe("default, acceptEdits, plan, auto, dontAsk or bypassPermissions."),
    taskId: z.string().optional().describe("The task; absent: new tasks."),
  }),
  z.object({ mode: PermissionModeName.describe("The permission mode in force now.") }),
)

export const McpServerStatus = z.enum(["connecting", "connected", "error", "disabled", "untrusted"])
export const ListMcpServers = request(
  AgentMethods.listMcpServers,
  "The configured MCP servers and their state (extension).",
  Empty,
  z.object({
    servers: z
      .array(
        z.object({
          name: z.string().describe("The server's name in mcp.json."),
          source: z.enum(["global", "workspace"]).describe("Which mcp.json configured it."),
          status: McpServerStatus.describe("connecting, connected, error, disabled, or untrusted (a workspace server not yet approved)."),
          error: z.string().optional().describe("Why it failed."),
          tools: z.array(z.string()).describe("Its tools' names."),
          resources: z.number().describe("How many resources it offers."),
        }),
      )
      .describe("Every configured MCP server."),
  }),
)
export const ListCheckpoints = request(
  AgentMethods.listCheckpoints,
  "A task's checkpoints: the snapshots taken before its changes (extension).",
  z.object({ taskId: TaskId }),
  z.object({
    checkpoints: z
      .array(
        z.object({
          id: z.string().describe("Names it in the other checkpoint methods."),
          createdAt: z.string().describe("When it was taken (ISO 8601)."),
          label: z.string().describe("Before what it was taken."),
          files: z.array(z.string()).describe("The files it holds changes for."),
        }),
      )
      .describe("Oldest first."),
  }),
)
export const DiffCheckpoint = request(
  AgentMethods.diffCheckpoint,
  "A unified diff from a checkpoint to the workspace now, or to another checkpoint (extension).",
  z.object({
    id: CheckpointId.describe("The checkpoint."),
    toId: CheckpointId.optional().describe("The later checkpoint; absent: the workspace now."),
  }),
  z.object({ diff: z.string().describe("Unified diff.") }),
)
export const RestoreCheckpoint = request(
  AgentMethods.restoreCheckpoint,
  "Puts the workspace's files back as they were at a checkpoint; open buffers follow through workspace/applyEdit (extension).",
  z.object({
    id: CheckpointId.describe("The checkpoint."),
    rewindConversation: z
      .boolean()
      .optional()
      .describe("Also cut the task's conversation back to the checkpoint (nothing is deleted from the task file)."),
  }),
  z.object({ restored: z.array(z.string()).describe("The files restored.") }),
)
/** The codebase index of the workspace (codebase_search): how far it is, and what it holds. */
export const IndexStatus = request(
  AgentMethods.indexStatus,
  "The codebase index of the workspace (codebase_search): how far it is, and what it holds (extension).",
  z.object({}).passthrough(),
  z.object({
    state: z
      .enum(["disabled", "indexing", "ready", "error"])
      .describe("`disabled` when codebaseIndex.enabled is false or no folder is open."),
    files: z.number().int().describe("Files indexed (all workspace folders together)."),
    chunks: z.number().int().describe("Chunks indexed (all workspace folders together)."),
    semantic: z.boolean().describe("True when an embedder is configured and vectors take part in the ranking."),
    message: z.string().optional().describe("Progress or what went wrong, for the user."),
    embedded: z.number().int().optional().describe("Chunks with vectors (semantic only)."),
    embedPending: z.number().int().optional().describe("Chunks still waiting for a vector (semantic only)."),
  }),
)

export const ListSkills = request(
  AgentMethods.listSkills,
  "The skills a mode sees (one per name, workspace over global, mode-specific over generic); without mode, every valid skill found (extension).",
  z.object({ mode: z.string().min(1).optional().describe("A mode slug; absent: every skill.") }),
  z.object({
    skills: z
      .array(
        z.object({
          name: z.string().describe("The skill's name (its folder's name)."),
          description: z.string().describe("What the skill is for, from its frontmatter."),
          path: z.string().describe("Absolute path of the SKILL.md."),
          source: z.enum(["workspace", "global"]).describe("Where it was found."),
          modes: z
            .array(z.string())
            .optional()
            .describe("The modes that see it (a skills-<mode>/ folder or frontmatter modeSlugs); absent: every mode."),
        }),
      )
      .describe("The skills, by name."),
  }),
)
export const ListCommands = request(
  AgentMethods.listCommands,
  "The slash commands, for completion after / : one per name, workspace over global over built-in (extension).",
  Empty,
  z.object({
    commands: z
      .array(
        z.object({
          name: z.string().describe("Typed after /."),
          description: z.string().optional().describe("From the command's frontmatter."),
          argumentHint: z.string().optional().describe('What to type after the name, e.g. "<path>".'),
          source: z
            .enum(["builtin", "workspace", "global", "mcp"])
            .describe("Where it was found; mcp: a prompt of a connected MCP server, named mcp.<server>.<prompt>."),
        }),
      )
      .describe("The slash commands, by name."),
  }),
)

const ReviewHunk = z.object({
  hunkId: z.string().describe("Names the hunk in agent/reviewDecide; changes when the hunk's text changes."),
  range: Range.describe("Where the hunk's new text is in the file now (an empty range where lines were removed)."),
  oldText: z.string().describe("The lines before the change (the baseline), empty for an insertion."),
  newText: z.string().describe("The lines as they are now, empty for a removal."),
  userEdited: z.boolean().optional().describe("True when the user typed inside this hunk: rejecting it drops that typing too."),
})
const ReviewFile = z.object({
  uri: z.string().describe("The file."),
  status: z.enum(["modified", "created", "deleted"]).describe("What the task did to the file."),
  byCommand: z.boolean().describe("True when a command (not an edit tool) made the change."),
  hunks: z.array(ReviewHunk).describe("The unreviewed hunks, top to bottom (a created or deleted file: one hunk of the whole text)."),
})
export const ReviewChanges = request(
  AgentMethods.reviewChanges,
  "What the task (and its subtasks) changed that nobody has kept or rejected yet: per file, the hunks from the text before the agent's first change to the text now.",
  z.object({ taskId: TaskId }),
  z.object({ files: z.array(ReviewFile).describe("One entry per file with unreviewed changes, by path.") }),
)
const ReviewProblem = z.object({
  uri: z.string().describe("The file."),
  line: z.number().int().describe("1-based line."),
  severity: z.enum(["error", "warning", "information", "hint"]).describe("How bad."),
  message: z.string().describe("What is wrong (with the checker's name)."),
})
export const ReviewDecide = request(
  AgentMethods.reviewDecide,
  "Keeps (into the baseline) or rejects (the baseline text written back, version-checked, then saved) hunks, whole files, or everything of a task's review.",
  z.object({
    taskId: TaskId,
    decisions: z
      .array(
        z.object({
          hunkId: z.string().optional().describe("One hunk, as agent/reviewChanges named it."),
          uri: z.string().optional().describe("Every hunk of this file."),
          all: z.literal(true).optional().describe("Every hunk of the task."),
          action: z.enum(["keep", "reject"]).describe("keep or reject."),
        }),
      )
      .min(1)
      .describe("Applied in order; each names one of hunkId, uri or all."),
  }),
  z.object({
    kept: z.number().int().describe("Hunks kept."),
    rejected: z.number().int().describe("Hunks rejected."),
    failed: z
      .array(
        z.object({
          hunkId: z.string().optional().describe("The hunk that was not decided."),
          uri: z.string().optional().describe("Its file."),
          reason: z.string().describe("Why, and what to do."),
        }),
      )
      .describe("Decisions not carried out; the files are unchanged by them."),
    droppedUserEdits: z
      .array(z.string())
      .optional()
      .describe("Files where a rejected hunk also held the user's own typing, now gone with it (undo with agent.review.undoReject)."),
    problems: z
      .array(ReviewProblem)
      .optional()
      .describe("Problems the language servers report in the rejected files that were not there before the reject."),
  }),
)

// ---- server → client ----------------------------------------------------------------

export const TaskUpdateNotification: MethodTriple<
  typeof AgentMethods.taskUpdate,
  z.ZodObject<{ taskId: z.ZodString; seq: z.ZodNumber; update: typeof TaskUpdate }>,
  z.ZodVoid
> = {
  method: AgentMethods.taskUpdate,
  params: z.object({
    taskId: z.string().describe("The task."),
    seq: z.number().int().describe("Increases by one per update of the task: a gap means a lost update."),
    update: TaskUpdate.describe("What happened, discriminated by `kind`."),
  }),
  result: z.void(),
  direction: "serverToClient",
  kind: "notification",
  summary: "One step of a task as it runs (clients that declared taskUpdates).",
}

/** A client that declared `deferredAnswers` may answer at once with this and answer later with agent/respond. */
export const Deferred = z.object({ deferred: z.literal(true).describe("The answer comes later, with agent/respond.") })

export const RequestApproval = request(
  AgentMethods.requestApproval,
  "Asks the user to approve a tool call, with its diff or command (clients that declared requestApproval).",
  z.object({
    requestId: z.string().describe("Names the request in agent/respond."),
    taskId: z.string().describe("The task asking."),
    callId: z.string().describe("The tool call (as in toolCall updates)."),
    tool: z.string().describe("The tool's name."),
    title: z.string().describe("One line to ask with."),
    detail: z.string().describe("More about what would happen (paths, working folder)."),
    diff: z.string().optional().describe("Unified diff of a proposed edit (a new file: against /dev/null)."),
    command: z.string().optional().describe("The full command line of a proposed command."),
    proposedText: z.string().optional().describe("The whole proposed file content, for clients that show or let the user edit it."),
    options: z.array(ApprovalOption).describe("The answers to offer, in order."),
  }),
  z.union([
    Deferred,
    z.object({
      optionId: z.string().describe("The chosen option."),
      feedback: z.string().optional().describe("Why the user rejected, passed to the model."),
      editedText: z.string().optional().describe("The file content as the user edited the proposal."),
    }),
  ]),
  "serverToClient",
)
export const AskFollowup = request(
  AgentMethods.askFollowup,
  "Asks the user the model's question, with suggested answers (clients that declared askFollowup).",
  z.object({
    requestId: z.string().describe("Names the question in agent/respond."),
    taskId: z.string().describe("The task asking."),
    question: z.string().describe("The whole question (may be long: show it whole)."),
    suggestions: z
      .array(
        z.object({
          text: z.string().describe("A suggested answer."),
          mode: z.string().optional().describe("The mode the task switches to with this answer."),
        }),
      )
      .describe("Suggested answers; the user may also type their own."),
  }),
  z.union([Deferred, z.object({ answer: z.string().describe("The user's answer.") })]),
  "serverToClient",
)
export const SaveDocuments = request(
  AgentMethods.saveDocuments,
  "Asks the editor to save buffers the agent edited, so the file is never written behind them (clients that declared saveDocuments).",
  z.object({ uris: z.array(z.string()).describe("The documents to save.") }),
  z.object({ saved: z.array(z.string()).describe("The documents now saved (a buffer with the user's own unsaved changes is left out).") }),
  "serverToClient",
)

export const Diagnostics = request(
  AgentMethods.diagnostics,
  "Asks the editor for its own diagnostics of files the agent edited, to tell the model about new problems (clients that declared experimental.agentDiagnostics).",
  z.object({ uris: z.array(z.string()).describe("The files to report on.") }),
  z.object({
    diagnostics: z
      .array(z.object({ uri: z.string().describe("The file."), items: z.array(Diagnostic).describe("Its diagnostics now.") }))
      .describe("One entry per file the editor knows diagnostics of."),
  }),
  "serverToClient",
)

/** The language-server requests the lsp and rename_symbol tools make, by the names the model uses. */
export const LanguageOperation = z.enum([
  "goToDefinition",
  "findReferences",
  "hover",
  "documentSymbol",
  "workspaceSymbol",
  "goToImplementation",
  "incomingCalls",
  "outgoingCalls",
  "rename",
])
export type LanguageOperation = z.infer<typeof LanguageOperation>

export const LanguageFeature = request(
  AgentMethods.languageFeature,
  "Asks the editor's own language servers one question for the lsp tool or a rename (clients that declared experimental.agent.languageFeature). The editor sends the matching LSP request (textDocument/definition, references, hover, documentSymbol, workspace/symbol, implementation, callHierarchy/incomingCalls or outgoingCalls after prepareCallHierarchy, rename) to the servers of the file's buffer, loaded without being shown, and answers with their result.",
  z.object({
    operation: LanguageOperation.describe(
      "goToDefinition, findReferences, hover, documentSymbol, workspaceSymbol, goToImplementation, incomingCalls, outgoingCalls or rename.",
    ),
    uri: z.string().optional().describe("The file (every operation but workspaceSymbol)."),
    position: Position.optional().describe("Where in the file (zero-based LSP Position; not for documentSymbol or workspaceSymbol)."),
    query: z.string().optional().describe("What to look for (workspaceSymbol)."),
    newName: z.string().optional().describe("The new name (rename)."),
  }),
  z
    .unknown()
    .describe(
      "The language server's own LSP result for that request (Location[] or LocationLink[], Hover, DocumentSymbol[] or SymbolInformation[], CallHierarchyIncomingCall[] / OutgoingCall[], WorkspaceEdit), or null when no language server covers the file.",
    ),
  "serverToClient",
)

/** Every method of the contract, keyed like AgentMethods. */
export const AgentProtocol = {
  newTask: NewTask,
  sendMessage: SendMessage,
  cancelTask: CancelTask,
  resumeTask: ResumeTask,
  respond: Respond,
  listTasks: ListTasks,
  getTask: GetTask,
  listModes: ListModes,
  setMode: SetMode,
  listMcpServers: ListMcpServers,
  listCheckpoints: ListCheckpoints,
  diffCheckpoint: DiffCheckpoint,
  restoreCheckpoint: RestoreCheckpoint,
  indexStatus: IndexStatus,
  listSkills: ListSkills,
  listCommands: ListCommands,
  setPermissionMode: SetPermissionMode,
  reviewChanges: ReviewChanges,
  reviewDecide: ReviewDecide,
  taskUpdate: TaskUpdateNotification,
  requestApproval: RequestApproval,
  askFollowup: AskFollowup,
  saveDocuments: SaveDocuments,
  diagnostics: Diagnostics,
  languageFeature: LanguageFeature,
} as const satisfies Record<keyof typeof AgentMethods, MethodTriple<string, z.ZodType, z.ZodType>>

export type ParamsOf<K extends keyof typeof AgentProtocol> = z.infer<(typeof AgentProtocol)[K]["params"]>
export type ResultOf<K extends keyof typeof AgentProtocol> = z.infer<(typeof AgentProtocol)[K]["result"]>
