import type { OutputBacklog } from "../../core/output-backlog"

/**
 * The ACP input, read only while the client takes our output: the SDK reads its input as fast as it comes
 * and queues an answer per request, so a client that writes but never reads would grow our memory without
 * bound. Each chunk is pulled from stdin only when the backlog allows; the pipe then fills and the client's
 * writes block instead.
 */
export function gatedInput(input: ReadableStream<Uint8Array>, backlog: OutputBacklog): ReadableStream<Uint8Array> {
  const reader = input.getReader()
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await backlog.whenReading()
        const { value, done } = await reader.read()
        if (done) controller.close()
        else controller.enqueue(value)
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  )
}
