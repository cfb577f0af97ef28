import { redactDeep } from "../../config/redact"

/** Requests whose text is the user's own file: changing it would corrupt the file. */
const FILE_CONTENT_METHODS = new Set(["fs/write_text_file"])

/**
 * The ACP connection's one writer: every outgoing message (session updates, responses, error responses,
 * requests) leaves without the secrets the server holds, except a file's content written through the client.
 */
export function redactingStream<M extends object>(stream: {
  writable: WritableStream<M>
  readable: ReadableStream<M>
}): {
  writable: WritableStream<M>
  readable: ReadableStream<M>
} {
  const writer = stream.writable.getWriter()
  const writable = new WritableStream<M>({
    write: (message) =>
      writer.write(FILE_CONTENT_METHODS.has((message as { method?: string }).method ?? "") ? message : redactDeep(message)),
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  })
  return { writable, readable: stream.readable }
}
