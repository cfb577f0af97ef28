import { z } from "zod"
import { AgentMethods } from "./names"
import {
  ApprovalOption,
  Diagnostic,
  ModeSummary,
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
}

function request<M extends string, P extends z.ZodType, R extends z.ZodType>(
  method: M,
  params: P,
  result: R,
  direction: "clientToServer" | "serverToClient" = "clientToServer",
): MethodTriple<M, P, R> {
  return { method, params, result, direction, kind: "request" }
}

const Empty = z.object({})
const TaskId = z.string().min(1)

// ---- client → server --------------------------------------------------------------

export const NewTask = request(
  AgentMethods.newTask,
  z.object({
    text: z.string().min(1, "text must not be empty"),
    mode: z.string().optional(),
    context: z.array(z.object({ uri: z.string(), range: Range.optional() })).optional(),
  }),
  z.object({ taskId: z.string() }),
)
export const SendMessage = request(AgentMethods.sendMessage, z.object({ taskId: TaskId, text: z.string() }), Empty)
export const CancelTask = request(AgentMethods.cancelTask, z.object({ taskId: TaskId }), Empty)
export const ResumeTask = request(AgentMethods.resumeTask, z.object({ taskId: TaskId }), Empty)
export const Respond = request(
  AgentMethods.respond,
  z.object({
    requestId: z.string().min(1),
    /** The task the answer is meant for; when given, an answer to a request of another task is refused. */
    taskId: z.string().min(1).optional(),
    optionId: z.string().optional(),
    answer: z.string().optional(),
    feedback: z.string().optional(),
    editedText: z.string().optional(),
  }),
  Empty,
)
export const ListTasks = request(AgentMethods.listTasks, Empty, z.object({ tasks: z.array(TaskSummary) }))
export const GetTask = request(
  AgentMethods.getTask,
  z.object({ taskId: TaskId }),
  z.object({
    taskId: z.string(),
    title: z.string(),
    mode: z.string(),
    status: TaskStatus,
    parentId: z.string().optional(),
    messages: z.array(TranscriptEntry),
    todos: z.array(Todo),
  }),
)
export const ListModes = request(
  AgentMethods.listModes,
  Empty,
  z.object({ modes: z.array(ModeSummary), defaultMode: z.string() }),
)
export const SetMode = request(AgentMethods.setMode, z.object({ mode: z.string().min(1), taskId: z.string().optional() }), Empty)

export const McpServerStatus = z.enum(["connecting", "connected", "error", "disabled", "untrusted"])
export const ListMcpServers = request(
  AgentMethods.listMcpServers,
  Empty,
  z.object({
    servers: z.array(
      z.object({
        name: z.string(),
        source: z.enum(["global", "workspace"]),
        status: McpServerStatus,
        error: z.string().optional(),
        tools: z.array(z.string()),
        resources: z.number(),
      }),
    ),
  }),
)
export const ListCheckpoints = request(
  AgentMethods.listCheckpoints,
  z.object({ taskId: TaskId }),
  z.object({
    checkpoints: z.array(z.object({ id: z.string(), createdAt: z.string(), label: z.string(), files: z.array(z.string()) })),
  }),
)
export const DiffCheckpoint = request(
  AgentMethods.diffCheckpoint,
  z.object({ id: z.string().min(1), toId: z.string().optional() }),
  z.object({ diff: z.string() }),
)
export const RestoreCheckpoint = request(
  AgentMethods.restoreCheckpoint,
  z.object({ id: z.string().min(1), rewindConversation: z.boolean().optional() }),
  z.object({ restored: z.array(z.string()) }),
)
/** The codebase index of the workspace (codebase_search): how far it is, and what it holds. */
export const IndexStatus = request(
  AgentMethods.indexStatus,
  z.object({}).passthrough(),
  z.object({
    /** `disabled` when codebaseIndex.enabled is false or no folder is open. */
    state: z.enum(["disabled", "indexing", "ready", "error"]),
    /** Files and chunks indexed (all workspace folders together). */
    files: z.number().int(),
    chunks: z.number().int(),
    /** True when an embedder is configured and vectors take part in the ranking. */
    semantic: z.boolean(),
    /** Progress or what went wrong, for the user. */
    message: z.string().optional(),
    /** Extension: chunks with vectors, and chunks still waiting for one (semantic only). */
    embedded: z.number().int().optional(),
    embedPending: z.number().int().optional(),
  }),
)

export const ListSkills = request(
  AgentMethods.listSkills,
  /** With `mode`: the skills that mode sees (one per name, overrides applied); without: every valid skill found. */
  z.object({ mode: z.string().min(1).optional() }),
  z.object({
    skills: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        /** Absolute path of the SKILL.md. */
        path: z.string(),
        source: z.enum(["workspace", "global"]),
        /** The modes that see it (a `skills-<mode>/` folder or frontmatter `modeSlugs`); absent = every mode. */
        modes: z.array(z.string()).optional(),
      }),
    ),
  }),
)
export const ListCommands = request(
  AgentMethods.listCommands,
  Empty,
  z.object({
    /** Slash commands for completion after `/`: one per name, workspace over global over built-in. */
    commands: z.array(
      z.object({
        name: z.string(),
        description: z.string().optional(),
        /** What to type after the name, e.g. "<path>". */
        argumentHint: z.string().optional(),
        source: z.enum(["builtin", "workspace", "global"]),
      }),
    ),
  }),
)

// ---- server → client ----------------------------------------------------------------

export const TaskUpdateNotification: MethodTriple<
  typeof AgentMethods.taskUpdate,
  z.ZodObject<{ taskId: z.ZodString; seq: z.ZodNumber; update: typeof TaskUpdate }>,
  z.ZodVoid
> = {
  method: AgentMethods.taskUpdate,
  params: z.object({ taskId: z.string(), seq: z.number().int(), update: TaskUpdate }),
  result: z.void(),
  direction: "serverToClient",
  kind: "notification",
}

/** A client that declared `deferredAnswers` may answer at once with this and answer later with agent/respond. */
export const Deferred = z.object({ deferred: z.literal(true) })

export const RequestApproval = request(
  AgentMethods.requestApproval,
  z.object({
    requestId: z.string(),
    taskId: z.string(),
    callId: z.string(),
    tool: z.string(),
    title: z.string(),
    detail: z.string(),
    /** Unified diff of a proposed edit. */
    diff: z.string().optional(),
    /** Full command line of a proposed command. */
    command: z.string().optional(),
    /** Full proposed file content, for clients that let the user edit it. */
    proposedText: z.string().optional(),
    options: z.array(ApprovalOption),
  }),
  z.union([
    Deferred,
    z.object({ optionId: z.string(), feedback: z.string().optional(), editedText: z.string().optional() }),
  ]),
  "serverToClient",
)
export const AskFollowup = request(
  AgentMethods.askFollowup,
  z.object({
    requestId: z.string(),
    taskId: z.string(),
    question: z.string(),
    suggestions: z.array(z.object({ text: z.string(), mode: z.string().optional() })),
  }),
  z.union([Deferred, z.object({ answer: z.string() })]),
  "serverToClient",
)
export const SaveDocuments = request(
  AgentMethods.saveDocuments,
  z.object({ uris: z.array(z.string()) }),
  z.object({ saved: z.array(z.string()) }),
  "serverToClient",
)

export const Diagnostics = request(
  AgentMethods.diagnostics,
  z.object({ uris: z.array(z.string()) }),
  z.object({ diagnostics: z.array(z.object({ uri: z.string(), items: z.array(Diagnostic) })) }),
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
  taskUpdate: TaskUpdateNotification,
  requestApproval: RequestApproval,
  askFollowup: AskFollowup,
  saveDocuments: SaveDocuments,
  diagnostics: Diagnostics,
} as const satisfies Record<keyof typeof AgentMethods, MethodTriple<string, z.ZodType, z.ZodType>>

export type ParamsOf<K extends keyof typeof AgentProtocol> = z.infer<(typeof AgentProtocol)[K]["params"]>
export type ResultOf<K extends keyof typeof AgentProtocol> = z.infer<(typeof AgentProtocol)[K]["result"]>
