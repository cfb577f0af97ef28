import { createConnection, ErrorCodes, ProposedFeatures, StreamMessageWriter, type Connection, type Message } from "vscode-languageserver/node"
import { InitializeGate } from "./wire/initialize-gate"
import { ResilientMessageReader } from "./wire/resilient-reader"

/**
 * The stdio connection: a reader that survives malformed input, answers it with ParseError, and refuses
 * requests before initialize. Exit codes and the parent-process watchdog come from vscode-languageserver.
 */
export function createStdioConnection(): Connection {
  const writer = new StreamMessageWriter(process.stdout)
  const reader = new ResilientMessageReader(process.stdin, ({ reason }) => {
    void writer.write({ jsonrpc: "2.0", id: null, error: { code: ErrorCodes.ParseError, message: `Parse error: ${reason}. The message was skipped.` } } as Message)
  })
  return createConnection(ProposedFeatures.all, new InitializeGate(reader, writer), writer)
}
