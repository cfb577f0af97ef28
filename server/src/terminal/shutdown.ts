import { constants } from "node:os"
import { killAllCommands } from "./runner"

/**
 * Ending the server on a signal without leaving its commands behind. A signal's default action ends the
 * process without running `exit` listeners, which is where every command's process group is killed; so each
 * front installs this: on the first signal every command group gets SIGTERM at once, the front winds down
 * (bounded), and the process exits (running the exit listeners: SIGKILL to what is left, browsers closed).
 * A second signal exits at once. bwrap's --die-with-parent is the last line, for SIGKILL.
 */

export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"]

/** How long `windDown` may take before the process exits anyway. */
const GRACE_MS = 3000

/** Installs the handlers; returns a function that removes them. Exit status: 128 + the signal's number. */
export function endOnSignals(signals: readonly NodeJS.Signals[], windDown?: (signal: NodeJS.Signals) => Promise<unknown>): () => void {
  let ending = false
  const handler = (signal: NodeJS.Signals) => {
    const code = 128 + (constants.signals[signal] ?? 0)
    if (ending) process.exit(code)
    ending = true
    killAllCommands("SIGTERM")
    const timer = new Promise((resolve) => setTimeout(resolve, GRACE_MS).unref())
    void Promise.race([Promise.resolve(windDown?.(signal)).catch(() => undefined), timer]).then(() => process.exit(code))
  }
  for (const signal of signals) process.on(signal, handler)
  return () => {
    for (const signal of signals) process.off(signal, handler)
  }
}
