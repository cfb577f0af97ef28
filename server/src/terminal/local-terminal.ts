import { startCommand, type CommandOptions, type RunningCommand } from "./runner"

/**
 * Our own runner (process groups, artifacts) as the terminal port that tools/context.ts declares: what the
 * LSP and CLI fronts hand the core, and the ACP front when the client has no terminals of its own.
 */
export const localTerminal = {
  start(options: CommandOptions): RunningCommand {
    return startCommand(options)
  },
}
