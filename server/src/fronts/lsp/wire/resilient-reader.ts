import type { Readable } from "node:stream"
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from "vscode-languageserver/node"
import { requestIdOf, type OutputBacklog } from "../../../core/output-backlog"
import { envelopeProblem } from "./envelope"

const HEADER_END = Buffer.from("\r\n\r\n")
const BAD_BODY_GRACE_MS = 200
const CONTENT_LENGTH = /^content-length:\s*(\d+)\s*$/im
/**
 * The largest message taken (a 10 MB didOpen is normal; a Content-Length beyond this is refused and its body
 * skipped), and the longest header block: both bound what a client can make the server buffer.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024
const MAX_HEADER_BYTES = 8 * 1024
/** Where a header block starts: resynchronisation target after garbage. */
const HEADER_START = /Content-Length:/i

/**
 * A message that could not be used: bytes that are not JSON are a ParseError (no code here, id null); JSON
 * that is not a valid JSON-RPC message carries its code (InvalidRequest) and the id to answer with.
 */
export type ParseFailure = { reason: string; code?: number; id?: string | number | null }

/**
 * A base-protocol reader that keeps serving after bad input, where vscode-jsonrpc's stream reader stops
 * or mis-frames: malformed JSON is answered with ParseError and skipped; a missing, non-numeric, too
 * short or too long Content-Length is recovered by resynchronising on the next `Content-Length:` header.
 * Messages of any size are accepted (a 10 MB didOpen is normal for a generated file).
 *
 * Why not vscode-jsonrpc's ReadableStreamMessageReader: on well-formed input it does the same framing, but
 * it cannot recover from a bad frame — a header without Content-Length throws and leaves its buffer
 * mid-message, a wrong Content-Length mis-frames every later message, and a bad body only fires onError
 * with no ParseError reply. What this reader does better: ParseError answers, resynchronising on the next
 * header, a header-only frame that does not swallow the next request, and no copy per chunk of a long
 * body. Everything after framing (dispatch, cancellation, progress) is vscode-jsonrpc's.
 */
export class ResilientMessageReader extends AbstractMessageReader {
  private buffer = Buffer.alloc(0)
  private callback: DataCallback | undefined
  /** While a long body arrives: chunks not yet joined, and how many bytes the buffer needs. */
  private pending: Buffer[] = []
  private pendingBytes = 0
  private neededBytes = 0
  /** A body that does not parse waits this long for the rest of a too-short message before it is reported. */
  private waitTimer: NodeJS.Timeout | undefined
  private gaveUpWaiting = false
  /** Counts each request read until it is answered (set by the connection). */
  backlog: OutputBacklog | undefined

  constructor(
    private readonly input: Readable,
    private readonly onParseFailure: (failure: ParseFailure) => void,
  ) {
    super()
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback
    const onData = (chunk: Buffer) => this.onData(chunk)
    const onError = (error: Error) => this.fireError(error)
    const onClose = () => this.fireClose()
    this.input.on("data", onData)
    this.input.on("error", onError)
    this.input.on("close", onClose)
    this.input.on("end", onClose)
    return {
      dispose: () => {
        this.input.off("data", onData)
        this.input.off("error", onError)
        this.input.off("close", onClose)
        this.input.off("end", onClose)
      },
    }
  }

  private onData(chunk: Buffer): void {
    // Joining every chunk into the buffer would copy a 10 MB body hundreds of times: collect until enough
    // has arrived, unless the chunk holds a header (a too-long Content-Length must be noticed).
    if (this.neededBytes > 0 && this.buffer.length + this.pendingBytes + chunk.length < this.neededBytes && chunk.indexOf("ontent-") < 0) {
      this.pending.push(chunk)
      this.pendingBytes += chunk.length
      return
    }
    if (this.waitTimer) {
      clearTimeout(this.waitTimer)
      this.waitTimer = undefined
    }
    this.buffer = Buffer.concat([this.buffer, ...this.pending, chunk])
    this.pending = []
    this.pendingBytes = 0
    this.neededBytes = 0
    while (this.readOne()) {
      // keep reading complete messages
    }
  }

  /** Reads one message (or skips one bad one). False when more bytes are needed. */
  private readOne(): boolean {
    const headerEnd = this.buffer.indexOf(HEADER_END)
    if (headerEnd < 0) {
      this.dropGarbageBeforeHeader()
      // A header that never ends would otherwise grow the buffer without bound.
      if (this.buffer.length > MAX_HEADER_BYTES && this.findHeader(0) === 0) {
        this.onParseFailure({ reason: `a message header longer than ${MAX_HEADER_BYTES} bytes` })
        this.resyncAfter(1)
        return true
      }
      return false
    }
    const header = this.buffer.subarray(0, headerEnd).toString("ascii")
    const bodyStart = headerEnd + HEADER_END.length
    const match = CONTENT_LENGTH.exec(header)
    if (!match || header.search(HEADER_START) !== 0) {
      this.onParseFailure({ reason: "a message header without a valid Content-Length" })
      this.resyncAfter(1)
      return true
    }
    const length = Number(match[1])
    if (length > MAX_MESSAGE_BYTES) {
      // Its body (or whatever a lying client sends instead) is dropped as garbage up to the next header.
      this.onParseFailure({ reason: `a message of ${length} bytes, over the ${MAX_MESSAGE_BYTES}-byte limit` })
      this.resyncAfter(bodyStart)
      return true
    }
    const nextHeader = this.findHeader(bodyStart)
    // A header with no body before the next header (only whitespace between): skip it alone, so it does
    // not swallow the next request as its body. A JSON-RPC body starts with "{", never with a header.
    if (nextHeader >= 0 && this.buffer.subarray(bodyStart, nextHeader).toString("utf8").trim() === "") {
      this.onParseFailure({ reason: "a message header without a body" })
      this.buffer = this.buffer.subarray(nextHeader)
      return true
    }
    if (this.buffer.length < bodyStart + length) {
      // Too long a Content-Length shows as a new header inside the "body": deliver what came before it.
      if (nextHeader >= 0 && this.tryDeliver(this.buffer.subarray(bodyStart, nextHeader))) {
        this.buffer = this.buffer.subarray(nextHeader)
        return true
      }
      this.neededBytes = bodyStart + length
      return false
    }
    const body = this.buffer.subarray(bodyStart, bodyStart + length)
    // Too long a Content-Length whose excess already arrived: the next header sits inside the "body".
    if (nextHeader >= 0 && nextHeader < bodyStart + length && !this.parses(body)) {
      // A bad body whose Content-Length is too long must not eat the next message's header: skip to it.
      if (!this.tryDeliver(this.buffer.subarray(bodyStart, nextHeader)))
        this.onParseFailure({ reason: "the message body is not valid JSON" })
      this.buffer = this.buffer.subarray(nextHeader)
      return true
    }
    if (this.tryDeliver(body)) {
      this.buffer = this.buffer.subarray(bodyStart + length)
      return true
    }
    // Too short a Content-Length: the message runs on to the next header (or to the end of what came).
    const runsTo = nextHeader > bodyStart + length ? nextHeader : this.buffer.length
    if (runsTo > bodyStart + length && this.tryDeliver(this.buffer.subarray(bodyStart, runsTo))) {
      this.buffer = this.buffer.subarray(runsTo)
      return true
    }
    // The rest of a too-short message may still be on its way: give it a moment before giving up.
    if (nextHeader < 0 && !this.gaveUpWaiting) {
      this.waitTimer ??= setTimeout(() => {
        this.waitTimer = undefined
        this.gaveUpWaiting = true
        while (this.readOne()) {
          // drain
        }
      }, BAD_BODY_GRACE_MS)
      return false
    }
    this.gaveUpWaiting = false
    this.onParseFailure({ reason: "the message body is not valid JSON" })
    this.buffer = this.buffer.subarray(bodyStart + length)
    this.dropGarbageBeforeHeader()
    return true
  }

  private tryDeliver(body: Buffer): boolean {
    let message: unknown
    try {
      message = JSON.parse(body.toString("utf8"))
    } catch {
      return false
    }
    const problem = envelopeProblem(message)
    if (problem) {
      this.onParseFailure(problem)
      return true
    }
    const id = requestIdOf(message)
    if (id !== undefined) this.backlog?.requestRead(id)
    this.callback?.(message as Message)
    return true
  }

  private parses(body: Buffer): boolean {
    try {
      JSON.parse(body.toString("utf8"))
      return true
    } catch {
      return false
    }
  }

  private findHeader(from: number): number {
    const index = this.buffer.indexOf("Content-Length:", from, "ascii")
    const lower = this.buffer.indexOf("content-length:", from, "ascii")
    if (index < 0) return lower
    if (lower < 0) return index
    return Math.min(index, lower)
  }

  private resyncAfter(offset: number): void {
    const next = this.findHeader(offset)
    this.buffer = next >= 0 ? this.buffer.subarray(next) : Buffer.alloc(0)
  }

  /** Bytes before the first header can never become a message. */
  private dropGarbageBeforeHeader(): void {
    const next = this.findHeader(0)
    if (next > 0) this.buffer = this.buffer.subarray(next)
    else if (next < 0 && this.buffer.length > 64) this.buffer = this.buffer.subarray(this.buffer.length - 32)
  }
}
