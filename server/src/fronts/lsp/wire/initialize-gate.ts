import { ErrorCodes, type DataCallback, type Disposable, type Message, type RequestMessage } from "vscode-languageserver/node"
import { ForwardingReader } from "./forwarding-reader"

/**
 * LSP: before `initialize`, requests get ServerNotInitialized (-32002) and notifications are dropped,
 * except `exit`; after `shutdown`, requests get InvalidRequest and notifications other than `exit` are
 * dropped. vscode-languageserver enforces neither, so the gate sits between reader and connection.
 */
export class InitializeGate extends ForwardingReader {
  private initialized = false
  private shutDown = false

  /** True once the client sent `shutdown`. */
  get shutdownReceived(): boolean {
    return this.shutDown
  }

  listen(callback: DataCallback): Disposable {
    return this.inner.listen((message: Message) => {
      const method = (message as Partial<RequestMessage>).method
      const id = (message as Partial<RequestMessage>).id
      if (this.shutDown && method !== undefined && method !== "exit") {
        if (id !== undefined && id !== null) {
          this.answerError(
            id,
            ErrorCodes.InvalidRequest,
            `The server is shutting down: only "exit" is accepted after "shutdown", not "${method}".`,
          )
        }
        return
      }
      if (this.initialized || method === "initialize" || method === "exit") {
        if (method === "initialize") this.initialized = true
        if (method === "shutdown" && id !== undefined && id !== null) this.shutDown = true
        callback(message)
        return
      }
      if (method !== undefined && id !== undefined && id !== null) {
        this.answerError(id, ErrorCodes.ServerNotInitialized, `The server is not initialized yet: send "initialize" before "${method}".`)
      }
    })
  }
}
