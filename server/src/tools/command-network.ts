import type { HostAsk } from "../sandbox"
import type { ToolContext } from "./context"

/**
 * execute_command's answer to "may this command reach host:port?" (the sandbox's network proxy asks it for
 * every host outside agent.sandbox.network.allowedHosts): the user, through the task's AskPort, with
 * "allow once" (this command), "always in this task", or reject. No answer in time, or nobody to ask
 * (headless), is a refusal.
 */

/**
 * Hosts the user allowed "always", per task: every later command of that task (follow-up messages and
 * resumption included) reaches them unasked; the server's other tasks, the task's subtasks included, do not.
 * Kept in memory for the task's life in this server: the task service forgets a task's
 * hosts when the task is deleted (task/task-service.ts) and all of them when the session ends (task/task-runner.ts).
 */
const alwaysAllowed = new Map<string, Set<string>>()

/** Forgets the hosts allowed "always" in these tasks (deleted, or their session ended). */
export function forgetAllowedHosts(taskIds: Iterable<string>): void {
  for (const taskId of taskIds) alwaysAllowed.delete(taskId)
}

export function hostAsker(ctx: ToolContext, command: string): HostAsk {
  return askerFor(ctx, {
    tool: "execute_command",
    command,
    detail: (host, port) =>
      `The command \`${command}\` (running in the OS sandbox) wants to connect to ${host} on port ${port}. It is not in agent.sandbox.network.allowedHosts.`,
    onceLabel: "Allow for this command",
  })
}

/** What a network question says: the tool, who wants the host, and what "allow once" covers. */
export interface HostQuestion {
  tool: string
  command?: string
  detail(host: string, port: number): string
  onceLabel: string
}

/** The user's answer to "may `question.tool` reach host:port?", with the task's "always" answers remembered. */
export function askerFor(ctx: ToolContext, question: HostQuestion): HostAsk {
  return async ({ host, port }, signal) => {
    const key = host.toLowerCase()
    if (alwaysAllowed.get(ctx.taskId)?.has(key)) return "always"
    const both = AbortSignal.any([signal, ctx.signal])
    let answer
    try {
      answer = await ctx.ask.approve(
        {
          taskId: ctx.taskId,
          callId: ctx.callId,
          tool: question.tool,
          title: `Allow network access to ${host}:${port}?`,
          detail: question.detail(host, port),
          ...(question.command === undefined ? {} : { command: question.command }),
          options: [
            { optionId: "allow_once", label: question.onceLabel, kind: "allow_once" },
            { optionId: "allow_always", label: `Always allow ${host} in this task`, kind: "allow_always" },
            { optionId: "reject", label: "Reject", kind: "reject_once" },
          ],
        },
        both,
      )
    } catch {
      return "deny"
    }
    if (answer.decision !== "answered") return "deny"
    if (answer.kind === "allow_always") {
      const hosts = alwaysAllowed.get(ctx.taskId) ?? new Set<string>()
      hosts.add(key)
      alwaysAllowed.set(ctx.taskId, hosts)
      return "always"
    }
    return answer.kind === "allow_once" ? "once" : "deny"
  }
}
