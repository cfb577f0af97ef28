import { AgentCommands, AgentMethods, CheckpointId, LocalUri, PermissionModeName, Range } from "@agent-lsp/protocol"
import { ErrorCodes, MessageType, ResponseError, type Connection } from "vscode-languageserver/node"
import { z } from "zod"
import type { TaskService } from "../../task/service"
import { toResponseError, zodMessage } from "./agent-requests"

export type CommandHandler = (args: unknown[]) => Promise<unknown>

const optionalTaskId = z.string().min(1).optional()

/** Argument schemas per command: tuples as PROTOCOL.md's command table gives them. */
const Args = {
  newTask: z.tuple([
    z.string().min(1, "the task text must not be empty"),
    z.object({ mode: z.string().optional(), uri: LocalUri.optional(), range: Range.optional() }).optional(),
  ]),
  sendMessage: z.tuple([z.string().min(1, "the message must not be empty"), optionalTaskId]),
  taskOnly: z.tuple([optionalTaskId]),
  setMode: z.tuple([z.string().min(1), optionalTaskId]),
  setPermissionMode: z.tuple([PermissionModeName, optionalTaskId]),
  none: z.tuple([]),
  respond: z.tuple([z.string().min(1), z.string(), z.string().optional()]),
  diffCheckpoint: z.tuple([CheckpointId, CheckpointId.optional()]),
  restoreCheckpoint: z.tuple([CheckpointId, z.boolean().optional()]),
}

export interface CommandDeps {
  /** The task layer, loaded on first use. */
  tasks: () => Promise<TaskService>
  /** Starts a task the way agent/newTask does (MCP servers connected first). */
  newTask: (params: { text: string; mode?: string; context?: { uri: string; range?: Range }[] }) => Promise<{ taskId: string }>
  /** Serves an agent/* request (the commands that mirror one). */
  request: (method: string, params: unknown) => Promise<unknown>
  /** agent/respond: delivers a late answer; throws when no such request is pending. */
  respond: (requestId: string, optionIdOrAnswer: string, feedback?: string) => Promise<void>
  /** Shows the transcript (or tells its path); resolves where it is. */
  showTranscript: (taskId: string) => Promise<{ uri: string; path: string }>
  /** Starts rebuilding the codebase index (progress follows as $/progress; agent/indexStatus tells). */
  rebuildIndex: () => Promise<void>
  /** Called after agent.newTask started a task (announce it). */
  onStarted: (taskId: string, text: string) => void
}

/** The agent.* commands of PROTOCOL.md, for editors that drive the agent with workspace/executeCommand. */
export function agentCommands(deps: CommandDeps): Record<string, CommandHandler> {
  const resolveTask = async (taskId: string | undefined): Promise<string> => {
    const id = taskId ?? (await deps.tasks()).activeTaskId()
    if (!id) throw new ResponseError(ErrorCodes.InvalidRequest, "There is no task yet: start one with agent.newTask.")
    return id
  }
  return {
    [AgentCommands.newTask]: async (args) => {
      const [text, options] = parse(AgentCommands.newTask, Args.newTask, args)
      const context = options?.uri ? [{ uri: options.uri, range: options.range }] : undefined
      const result = await deps.newTask({ text, mode: options?.mode, context })
      deps.onStarted(result.taskId, text)
      return result
    },
    [AgentCommands.sendMessage]: async (args) => {
      const [text, taskId] = parse(AgentCommands.sendMessage, Args.sendMessage, args)
      await deps.request(AgentMethods.sendMessage, { taskId: await resolveTask(taskId), text })
      return {}
    },
    [AgentCommands.cancelTask]: async (args) => {
      const [taskId] = parse(AgentCommands.cancelTask, Args.taskOnly, args)
      await (await deps.tasks()).cancelTask(await resolveTask(taskId))
      return {}
    },
    [AgentCommands.resumeTask]: async (args) => {
      const [taskId] = parse(AgentCommands.resumeTask, Args.taskOnly, args)
      await (await deps.tasks()).resumeTask(await resolveTask(taskId))
      return {}
    },
    [AgentCommands.setMode]: async (args) => {
      const [mode, taskId] = parse(AgentCommands.setMode, Args.setMode, args)
      await (await deps.tasks()).setMode(mode, taskId)
      return {}
    },
    // Without a taskId: new tasks (as agent/setPermissionMode), not the active task.
    [AgentCommands.setPermissionMode]: async (args) => {
      const [mode, taskId] = parse(AgentCommands.setPermissionMode, Args.setPermissionMode, args)
      return (await deps.tasks()).setPermissionMode(mode, taskId)
    },
    [AgentCommands.listTasks]: async (args) => {
      parse(AgentCommands.listTasks, Args.none, args)
      return { tasks: await (await deps.tasks()).listTasks() }
    },
    [AgentCommands.respond]: async (args) => {
      const [requestId, answer, feedback] = parse(AgentCommands.respond, Args.respond, args)
      await deps.respond(requestId, answer, feedback)
      return {}
    },
    [AgentCommands.listMcpServers]: async (args) => {
      parse(AgentCommands.listMcpServers, Args.none, args)
      return deps.request(AgentMethods.listMcpServers, {})
    },
    [AgentCommands.listCheckpoints]: async (args) => {
      const [taskId] = parse(AgentCommands.listCheckpoints, Args.taskOnly, args)
      return deps.request(AgentMethods.listCheckpoints, { taskId: await resolveTask(taskId) })
    },
    [AgentCommands.diffCheckpoint]: async (args) => {
      const [id, toId] = parse(AgentCommands.diffCheckpoint, Args.diffCheckpoint, args)
      return deps.request(AgentMethods.diffCheckpoint, { id, toId })
    },
    [AgentCommands.restoreCheckpoint]: async (args) => {
      const [id, rewindConversation] = parse(AgentCommands.restoreCheckpoint, Args.restoreCheckpoint, args)
      return deps.request(AgentMethods.restoreCheckpoint, { id, rewindConversation })
    },
    [AgentCommands.rebuildIndex]: async (args) => {
      parse(AgentCommands.rebuildIndex, Args.none, args)
      await deps.rebuildIndex()
      return {}
    },
    [AgentCommands.showTranscript]: async (args) => {
      const [taskId] = parse(AgentCommands.showTranscript, Args.taskOnly, args)
      return deps.showTranscript(await resolveTask(taskId))
    },
  }
}

/** Runs one workspace/executeCommand; unknown commands are InvalidParams naming the known ones. */
export async function runCommand(
  connection: Connection,
  table: Record<string, CommandHandler>,
  command: string,
  args: unknown[],
): Promise<unknown> {
  const handler = Object.hasOwn(table, command) ? table[command] : undefined
  if (typeof handler !== "function")
    throw new ResponseError(ErrorCodes.InvalidParams, `Unknown command "${command}". Commands: ${Object.keys(table).join(", ")}.`)
  try {
    return await handler(args)
  } catch (error) {
    const wire = toResponseError(error)
    // Editors such as Helix show nothing for a failed command: say it in the editor too.
    void connection.sendNotification("window/showMessage", {
      type: MessageType.Error,
      message: `agent: ${command} failed: ${wire.message}`,
    })
    throw wire
  }
}

function parse<T extends z.ZodType>(command: string, schema: T, args: unknown[]): z.infer<T> {
  // Trailing nulls are how some editors pass "no argument".
  const trimmed = [...args]
  while (trimmed.length && (trimmed[trimmed.length - 1] === null || trimmed[trimmed.length - 1] === undefined)) trimmed.pop()
  const parsed = schema.safeParse(trimmed)
  if (!parsed.success) throw new ResponseError(ErrorCodes.InvalidParams, `Invalid arguments for ${command}: ${zodMessage(parsed.error)}`)
  return parsed.data
}

/** The argument parsing of the agent.* commands, for command tables kept in files of their own (review-commands.ts). */
export { parse as parseCommandArgs }
