import { AbstractMessageReader, type Message, type MessageReader, type MessageWriter } from "vscode-languageserver/node"

/**
 * A reader stage between the frame reader and the connection: it forwards the inner reader's errors,
 * close and partial-message events, and disposes it; subclasses decide in `listen` what passes, and answer
 * what they stop through the writer (the connection never sees those messages, so it cannot answer them).
 */
export abstract class ForwardingReader extends AbstractMessageReader {
  constructor(
    protected readonly inner: MessageReader,
    private readonly writer: MessageWriter,
  ) {
    super()
    inner.onError((error) => this.fireError(error))
    inner.onClose(() => this.fireClose())
    inner.onPartialMessage((info) => this.firePartialMessage(info))
  }

  /** Answers a request this stage stopped with a JSON-RPC error. */
  protected answerError(id: number | string, code: number, message: string): void {
    void this.writer.write({ jsonrpc: "2.0", id, error: { code, message } } as Message)
  }

  /** Sends a notification of our own (e.g. window/logMessage about a dropped message). */
  protected notify(method: string, params: unknown): void {
    void this.writer.write({ jsonrpc: "2.0", method, params } as Message)
  }

  override dispose(): void {
    super.dispose()
    this.inner.dispose()
  }
}
