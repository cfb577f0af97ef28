import { StringDecoder } from "node:string_decoder"
import { StreamRedactor } from "../config/redact-stream"

/**
 * What the model sees of a command's output: all of it when it fits in `maxLines` lines and `maxBytes`,
 * else the first 20% and the last 80% of that budget with a note between. Memory stays bounded (a few
 * times `maxBytes`) however much the command prints; the whole output goes to the artifact file.
 */
export class OutputWindow {
  private readonly decoder = new StringDecoder("utf8")
  /** Secrets the server holds never reach the model or the editor, even split across chunks. */
  private readonly redactor = new StreamRedactor()
  private full: string | undefined = ""
  private head = ""
  private tail = ""
  private headDone = false
  totalBytes = 0
  totalLines = 0
  private lastChar = ""

  constructor(
    private readonly maxLines: number,
    private readonly maxBytes: number,
  ) {}

  /** Adds raw bytes; returns them decoded (for streaming to the editor). */
  push(chunk: Buffer): string {
    const text = this.redactor.push(stripAnsi(this.decoder.write(chunk)))
    this.add(text)
    return text
  }

  /** Flushes the decoder. */
  end(): string {
    const text = this.redactor.push(stripAnsi(this.decoder.end())) + this.redactor.end()
    if (text) this.add(text)
    return text
  }

  get truncated(): boolean {
    return this.full === undefined
  }

  /** The text for the model; `note` is placed where lines were left out. */
  render(note: (omittedLines: number, omittedBytes: number) => string): string {
    if (this.full !== undefined) return this.full
    const headLines = Math.max(1, Math.floor(this.maxLines * 0.2))
    const tailLines = Math.max(1, this.maxLines - headLines)
    const head = firstLines(this.head, headLines, Math.floor(this.maxBytes * 0.2))
    const tail = lastLines(this.tail, tailLines, Math.floor(this.maxBytes * 0.8))
    const shownLines = countLines(head) + countLines(tail)
    const omittedLines = Math.max(0, this.totalLines + (this.lastChar && this.lastChar !== "\n" ? 1 : 0) - shownLines)
    const omittedBytes = Math.max(0, this.totalBytes - Buffer.byteLength(head) - Buffer.byteLength(tail))
    return `${head}${head.endsWith("\n") ? "" : "\n"}\n${note(omittedLines, omittedBytes)}\n\n${tail}`
  }

  private add(text: string): void {
    if (!text) return
    this.totalBytes += Buffer.byteLength(text)
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.totalLines++
    this.lastChar = text[text.length - 1]!
    if (this.full !== undefined) {
      this.full += text
      if (this.totalBytes > this.maxBytes || this.totalLines > this.maxLines) this.full = undefined
    }
    if (!this.headDone) {
      this.head += text
      if (this.head.length > this.maxBytes) this.headDone = true
    }
    this.tail += text
    // Keep the tail bounded: twice the budget is plenty to cut the last lines from.
    if (this.tail.length > this.maxBytes * 2) this.tail = this.tail.slice(this.tail.length - this.maxBytes)
  }
}

function firstLines(text: string, lines: number, bytes: number): string {
  const parts = text.split("\n")
  let out = parts.slice(0, lines).join("\n")
  if (parts.length > lines) out += "\n"
  return Buffer.byteLength(out) > bytes ? out.slice(0, bytes) : out
}

function lastLines(text: string, lines: number, bytes: number): string {
  const parts = text.split("\n")
  const trailingNewline = text.endsWith("\n")
  if (trailingNewline) parts.pop()
  const out = parts.slice(-lines).join("\n") + (trailingNewline ? "\n" : "")
  return Buffer.byteLength(out) > bytes ? out.slice(out.length - bytes) : out
}

function countLines(text: string): number {
  if (!text) return 0
  let n = 0
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++
  return text.endsWith("\n") ? n : n + 1
}

// CSI/OSC escape sequences: colours and cursor moves mean nothing to the model.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)|\u001b[@-Z\\-_]/g

export function stripAnsi(text: string): string {
  return text.includes("\u001b") ? text.replace(ANSI, "") : text
}
