import { AbstractMessageReader, type MessageReader } from "vscode-languageserver/node"

/**
 * A reader stage between the frame reader and the connection: it forwards the inner reader's errors,
 * close and partial-message events, and disposes it; subclasses decide in `listen` what passes.
 */
export abstract class ForwardingReader extends AbstractMessageReader {
  constructor(protected readonly inner: MessageReader) {
    super()
    inner.onError((error) => this.fireError(error))
    inner.onClose(() => this.fireClose())
    inner.onPartialMessage((info) => this.firePartialMessage(info))
  }

  override dispose(): void {
    super.dispose()
    this.inner.dispose()
  }
}
