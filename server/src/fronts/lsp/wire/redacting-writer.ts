import { StreamMessageWriter, type Message } from "vscode-languageserver/node"
import { redactDeep } from "../../../config/redact"
import { responseIdOf, type OutputBacklog } from "../../../core/output-backlog"

/**
 * The server's one writer to the editor: no secret the server holds leaves in any message (notifications
 * such as showMessage, logMessage and $/progress, requests, responses and error responses alike). Text that
 * is the user's own file goes through unchanged, since changing it would corrupt the file: the edits of
 * `workspace/applyEdit` and the proposed file text of an approval (which the user may edit and send back).
 */
export class RedactingMessageWriter extends StreamMessageWriter {
  /** Counts the writes the client has not taken yet (set by the connection). */
  backlog: OutputBacklog | undefined

  override write(message: Message): Promise<void> {
    const written = super.write(redactMessage(message))
    if (!this.backlog) return written
    this.backlog.answered(responseIdOf(message))
    return this.backlog.track(written)
  }
}

export function redactMessage(message: Message): Message {
  const { method, params } = message as { method?: string; params?: { proposedText?: unknown } }
  if (method === "workspace/applyEdit") return message
  if (method === "agent/requestApproval" && params && typeof params === "object" && "proposedText" in params) {
    const { proposedText, ...rest } = params
    return { ...message, params: { ...redactDeep(rest), proposedText } } as Message
  }
  return redactDeep(message)
}
