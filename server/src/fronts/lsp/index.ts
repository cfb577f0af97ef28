import { createStdioConnection } from "./connection"
import { startServer, type ServerOptions } from "./server"

/** `agent-lsp --stdio`: LSP over this process's stdin/stdout. */
export function startLspFront(options: ServerOptions): void {
  startServer(createStdioConnection(), options)
}
