import { redactDeep } from "../../config/redact"
import { requestIdOf, responseIdOf, type OutputBacklog } from "../../core/output-backlog"
import { withReadableInvalidParams } from "./invalid-params"

/** Requests whose text is the user's own file: changing it would corrupt the file. */
const FILE_CONTENT_METHODS = new Set(["fs/write_text_file"])

/**
 * The ACP connection's one writer: every outgoing message (session updates, responses, error responses,
 * requests) leaves without the secrets the server holds, except a file's content written through the client;
 * the SDK's bare "Invalid params" errors leave with a message naming the wrong fields.
 */
export function redactingStream<M extends object>(
  stream: {
    writable: WritableStream<M>
    readable: ReadableStream<M>
  },
  backlog?: OutputBacklog,
): {
  writable: WritableStream<M>
  readable: ReadableStream<M>
} {
  const writer = stream.writable.getWriter()
  let sinkController: WritableStreamDefaultController | undefined
  const writable = new WritableStream<M>({
    start: (controller) => {
      sinkController = controller
    },
    write: (message) => {
      const outgoing = FILE_CONTENT_METHODS.has((message as { method?: string }).method ?? "")
        ? message
        : redactDeep(withReadableInvalidParams(message))
      const written = writer.write(outgoing)
      if (!backlog) return written
      backlog.answered(responseIdOf(message))
      // Not awaited: the inner stream queues it, and the backlog counts it until it is written (a sink that
      // awaited would hide the queue from the count). A failed write still fails this stream.
      backlog.track(written).catch((error) => sinkController?.error(error))
      return undefined
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  })
  // Each request the SDK takes is owed an answer until one is written.
  const readable = backlog
    ? stream.readable.pipeThrough(
        new TransformStream<M, M>({
          transform(message, controller) {
            const id = requestIdOf(message)
            if (id !== undefined) backlog.requestRead(id)
            controller.enqueue(message)
          },
        }),
      )
    : stream.readable
  return { writable, readable }
}
