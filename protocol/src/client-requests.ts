import { z } from "zod"
import { AgentMethods } from "./names"
import { ModeSummary, PermissionModeName, Range, TaskStatus, TaskSummary, Todo, TranscriptEntry } from "./types"
import { request, Empty, TaskId, LocalUri, CheckpointId } from "./method-triple"

/* The requests a client sends the server (agent/newTask, agent/respond, …): their summaries and zod schemas. */

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
