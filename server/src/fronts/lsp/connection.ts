import { OUTPUT_BACKLOG_LIMIT, OutputBacklog } from "../../core/output-backlog"
import { createConnection, ErrorCodes, ProposedFeatures, type Connection, type Message } from "vscode-languageserver/node"
import { InitializeGate } from "./wire/initialize-gate"
import { ParamsGuard } from "./wire/params-guard"
import { RedactingMessageWriter } from "./wire/redacting-writer"
import { ResilientMessageReader } from "./wire/resilient-reader"

/**
 * The stdio connection: a reader that survives malformed input, answers it with ParseError, checks the
 * params of standard messages, and refuses requests before initialize and after shutdown. Exit codes and the parent-process watchdog come from vscode-languageserver.
 */
export function createStdioConnection(): Connection {
  const writer = new RedactingMessageWriter(process.stdout)
  const reader = new ResilientMessageReader(process.stdin, ({ reason, code, id }) => {
    const error =
      code === undefined
        ? { code: ErrorCodes.ParseError, message: `Parse error: ${reason}. The message was skipped.` }
        : { code, message: `Invalid request: ${reason}. The message was skipped.` }
    void writer.write({ jsonrpc: "2.0", id: id ?? null, error } as Message)
  })
  // A client that does not read our answers is not read either (memory stays bounded; see OutputBacklog).
  const backlog = new OutputBacklog(
    OUTPUT_BACKLOG_LIMIT,
    () => process.stdin.pause(),
    () => process.stdin.resume(),
  )
  writer.backlog = backlog
  reader.backlog = backlog
  const gate = new InitializeGate(new ParamsGuard(reader, writer), writer)
  // The editor is gone when stdin ends: leave at once (LSP exit codes: 0 after shutdown, else 1), rather than
  // linger on timers and watchers. The short delay lets responses already written reach the pipe.
  process.stdin.once("end", () => setTimeout(() => process.exit(gate.shutdownReceived ? 0 : 1), 50))
  return createConnection(ProposedFeatures.all, gate, writer)
}
