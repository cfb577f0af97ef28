import { endOnSignals, SHUTDOWN_SIGNALS } from "../../terminal/shutdown"
import { createStdioConnection } from "./connection"
import { startServer, type ServerOptions } from "./server"

/** `agent-lsp --stdio`: LSP over this process's stdin/stdout. */
export function startLspFront(options: ServerOptions): void {
  // Node ends the process on an unhandled rejection; one failed fire-and-forget handler must not take the
  // editor's agent down with it. It is reported on stderr (the editor's server log) instead.
  process.on("unhandledRejection", (reason) => {
    process.stderr.write(`agent-lsp: unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`)
  })
  // A closed stdin ends the server in connection.ts; a signal ends it here, with every command it started.
  endOnSignals(SHUTDOWN_SIGNALS)
  startServer(createStdioConnection(), options)
}
