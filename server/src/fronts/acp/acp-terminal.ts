import type { AgentContext } from "@agentclientprotocol/sdk"
import { localTerminal } from "../../terminal/local-terminal"
import type { CommandOptions, RunningCommand } from "../../terminal/runner"
import type { TerminalPort } from "../../tools/context"
import { startClientCommand } from "./client-command"

/** The session a task's command shows in. */
export interface TerminalSession {
  readonly id: string
  /** Shows the terminal in the tool call's content (`{type: "terminal", terminalId}`). */
  attachTerminal(callId: string, terminalId: string): void
}

/**
 * TerminalPort over the client's terminals, for a client that declared `terminal: true`: execute_command's
 * approved command line runs in the editor (which shows it live in the tool call), through terminal/*.
 * A task no session shows (none should exist) runs in our own runner rather than nowhere.
 */
export class AcpTerminalPort implements TerminalPort {
  constructor(
    private readonly client: AgentContext,
    private readonly sessionOf: (taskId: string) => TerminalSession | undefined,
  ) {}

  start(options: CommandOptions, call: { taskId: string; callId: string }): RunningCommand {
    const session = this.sessionOf(call.taskId)
    if (!session) return localTerminal.start(options)
    return startClientCommand(this.client, session.id, options, (terminalId) => session.attachTerminal(call.callId, terminalId))
  }
}
