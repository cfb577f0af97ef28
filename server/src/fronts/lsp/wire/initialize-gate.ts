import {
  AbstractMessageReader,
  ErrorCodes,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageReader,
  type MessageWriter,
  type RequestMessage,
} from "vscode-languageserver/node"

/**
 * LSP: before `initialize`, requests get ServerNotInitialized (-32002) and notifications are dropped,
 * except `exit`. vscode-languageserver does not enforce this, so the gate sits between reader and connection.
 */
export class InitializeGate extends AbstractMessageReader {
  private initialized = false

  constructor(
    private readonly inner: MessageReader,
    private readonly writer: MessageWriter,
  ) {
    super()
    inner.onError((error) => this.fireError(error))
    inner.onClose(() => this.fireClose())
    inner.onPartialMessage((info) => this.firePartialMessage(info))
  }

  listen(callback: DataCallback): Disposable {
    return this.inner.listen((message: Message) => {
      const method = (message as Partial<RequestMessage>).method
      if (this.initialized || method === "initialize" || method === "exit") {
        if (method === "initialize") this.initialized = true
        callback(message)
        return
      }
      const id = (message as Partial<RequestMessage>).id
      if (method !== undefined && id !== undefined && id !== null) {
        void this.writer.write({
          jsonrpc: "2.0",
          id,
          error: { code: ErrorCodes.ServerNotInitialized, message: `The server is not initialized yet: send "initialize" before "${method}".` },
        } as Message)
      }
    })
  }

  override dispose(): void {
    super.dispose()
    this.inner.dispose()
  }
}
