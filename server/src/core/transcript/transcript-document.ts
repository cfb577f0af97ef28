import { pathToFileURL } from "node:url"
import { redactSecrets } from "../../config/redact"
import type { TranscriptIo, TranscriptTextEdit } from "./transcript-io"

/**
 * One task's transcript: the markdown text in memory, a file on disk, and the editor's copy kept in
 * step by appending with workspace/applyEdit. Appends are batched (streamed text would otherwise be one
 * applyEdit per token) and sent strictly in order, each as an insert at the end of the text the
 * previous one left.
 */
export class TranscriptDocument {
  readonly uri: string
  private text: string
  /** Text appended but not yet sent. */
  private pendingText = ""
  private timer: NodeJS.Timeout | undefined
  private chain: Promise<void> = Promise.resolve()
  /** False until the editor was asked to show the document; edits before that would open it unasked. */
  private shown = false
  /** Where `text` ends, kept as text is added (scanning the whole text per flush was quadratic). */
  private end: { line: number; character: number }
  /** True once the disk holds exactly what was sent so far: later flushes append instead of rewriting. */
  private diskInStep = false

  constructor(
    readonly path: string,
    initialText: string,
    private readonly io: TranscriptIo,
    private readonly flushDelayMs: number,
  ) {
    this.uri = pathToFileURL(path).toString()
    this.text = initialText
    this.end = endPosition(initialText)
  }

  /** The full text, including what is still waiting to be sent. */
  get content(): string {
    return this.text + this.pendingText
  }

  /** Queues text for the end of the document; sent after flushDelayMs (or at the next flush()). */
  append(text: string): void {
    if (text === "") return
    this.pendingText += text
    if (this.timer === undefined) this.timer = setTimeout(() => void this.flush(), this.flushDelayMs)
  }

  /**
   * Puts text before everything else (the title, when the task's first events came before startTask).
   * Only possible while the editor has no copy; returns false once the document was shown.
   */
  prepend(text: string): boolean {
    if (this.shown) return false
    this.text = text + this.text
    this.end = endPosition(this.text)
    this.diskInStep = false
    return true
  }

  /** Whether the editor was asked to show the document (and accepted). */
  get isShown(): boolean {
    return this.shown
  }

  /** Sends what is queued: one applyEdit at the end of the editor's copy, then the whole file to disk. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    // Secrets never reach the file or the editor (checked per batch: streamed text is joined by then).
    const addition = redactSecrets(this.pendingText)
    this.pendingText = ""
    if (addition === "") return this.chain
    const at = this.end
    this.end = advance(at, addition)
    this.text += addition
    const full = this.text
    this.chain = this.chain.then(async () => {
      // Decided here, in the chain, so it sees how every earlier write went.
      const append = this.diskInStep && this.io.appendFile ? this.io.appendFile.bind(this.io) : undefined
      // The disk first: an editor that reloads files then sees the same text the edit makes.
      const written = append
        ? await this.guard("append", () => append(this.path, addition))
        : await this.guard("write", () => this.io.writeFile(this.path, full))
      // After a failed write the disk may hold anything: the next flush rewrites it whole.
      this.diskInStep = written !== false
      if (this.shown) {
        const edits: TranscriptTextEdit[] = [{ range: { start: at, end: at }, newText: addition }]
        await this.guard("applyEdit", () => this.io.applyEdit(this.uri, edits))
      }
    })
    return this.chain
  }

  /** Writes the current text to disk and asks the editor to show it (not taking focus unless asked). */
  async show(takeFocus = false): Promise<void> {
    await this.flush()
    const full = this.text
    this.chain = this.chain.then(async () => {
      this.diskInStep = (await this.guard("write", () => this.io.writeFile(this.path, full))) !== false
      const ok = await this.guard("showDocument", () => this.io.showDocument(this.uri, takeFocus))
      // Later appends go to the editor's copy only once it has the document (an applyEdit on a file the
      // editor does not show would open it unasked, or fail).
      if (ok !== false) this.shown = true
    })
    return this.chain
  }

  /** Never lets a failing editor or disk stop the task: the transcript is a view, not the record. */
  private async guard<T>(what: string, run: () => Promise<T>): Promise<T | false> {
    try {
      return await run()
    } catch (error) {
      this.io.log?.(`transcript ${what} failed for ${this.path}: ${error instanceof Error ? error.message : String(error)}`)
      return false
    }
  }
}

/** The end position after appending `added` at `from`. */
function advance(from: { line: number; character: number }, added: string): { line: number; character: number } {
  const lastBreak = added.lastIndexOf("\n")
  if (lastBreak < 0) return { line: from.line, character: from.character + added.length }
  let breaks = 0
  for (let i = added.indexOf("\n"); i !== -1; i = added.indexOf("\n", i + 1)) breaks++
  return { line: from.line + breaks, character: added.length - (lastBreak + 1) }
}

/** The LSP position of the end of `text` (UTF-16 code units, which is what JS string lengths count). */
export function endPosition(text: string): { line: number; character: number } {
  const lastBreak = text.lastIndexOf("\n")
  let line = 0
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) line += 1
  return { line, character: text.length - (lastBreak + 1) }
}
