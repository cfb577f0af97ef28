import { join } from "node:path"
import type { TaskEvent } from "../../task/events"
import type { ApprovalRequest, QuestionRequest } from "../../tools/context"
import { DEFAULT_RENDER_OPTIONS, TranscriptRenderer, type TranscriptRenderOptions } from "./render"
import { TranscriptDocument } from "./transcript-document"
import type { TranscriptIo } from "./transcript-io"

/** Options of a TranscriptWriter. */
export interface TranscriptWriterOptions {
  /** Folder of the transcript files: `transcriptDir(stateDir)`. */
  dir: string
  io: TranscriptIo
  /** How long appends are batched before one applyEdit; default 100 ms. */
  flushDelayMs?: number
  render?: TranscriptRenderOptions
}

/** Where transcripts live under the state directory. */
export function transcriptDir(stateDir: string): string {
  return join(stateDir, "transcripts")
}

/** A task's transcript file in `dir`. Task ids are the server's own (no path characters). */
export function transcriptFile(dir: string, taskId: string): string {
  return join(dir, `${taskId.replace(/[^A-Za-z0-9_.-]/g, "_")}.md`)
}

interface Entry {
  doc: TranscriptDocument
  renderer: TranscriptRenderer
  /** False until the title is at the top (events may arrive before startTask names the task). */
  titled: boolean
}

/**
 * The transcript documents of every task, for clients that did not declare `taskUpdates` (Helix, Zed,
 * Emacs): a markdown file per task under the state directory, shown with window/showDocument (without
 * taking focus) when the task starts, kept current through workspace/applyEdit and on disk.
 *
 * The LSP front feeds it: `startTask` at agent/newTask (and for subtasks), `onEvent` from TaskService.onEvent,
 * `pendingApproval`/`pendingQuestion` when an approval or question waits for agent.respond, `answered`
 * when one is settled, `userMessage` for agent/sendMessage, and `show` for agent.showTranscript.
 */
export class TranscriptWriter {
  private readonly tasks = new Map<string, Entry>()
  private readonly opening = new Map<string, Promise<Entry>>()
  /** Work started by synchronous calls (onEvent…), awaited by flush() so nothing is lost at shutdown. */
  private readonly background = new Set<Promise<unknown>>()

  constructor(private readonly options: TranscriptWriterOptions) {}

  /** Absolute path of a task's transcript file. Task ids are the server's own (no path characters). */
  pathOf(taskId: string): string {
    return transcriptFile(this.options.dir, taskId)
  }

  /** The file URI of a task's transcript, once it has one. */
  uriOf(taskId: string): string | undefined {
    return this.tasks.get(taskId)?.doc.uri
  }

  /** The transcript text so far (tests, agent.showTranscript fallbacks). */
  contentOf(taskId: string): string | undefined {
    return this.tasks.get(taskId)?.doc.content
  }

  /** Starts a task's transcript with its title and request, and shows it without taking focus. */
  async startTask(taskId: string, title: string, userText?: string): Promise<void> {
    const entry = await this.entry(taskId)
    this.title(entry, taskId, title)
    if (userText !== undefined) entry.doc.append(entry.renderer.user(userText))
    await entry.doc.show(false)
  }

  /** Appends one task event. Synchronous so it can be a TaskService.onEvent listener. */
  onEvent(taskId: string, event: TaskEvent): void {
    this.track(
      this.entry(taskId).then((entry) => {
        entry.doc.append(entry.renderer.update(event))
        // A subtask gets its own transcript, shown like its parent's.
        if (event.kind === "subtask") this.track(this.startTask(event.childTaskId, `Subtask of ${taskId}`))
        // Settled states are written at once: the user may be looking for the result or the question.
        if (event.kind === "completed" || event.kind === "error" || event.kind === "status") this.track(entry.doc.flush())
      }),
    )
  }

  /** A message the user sent to the task (agent/sendMessage). */
  userMessage(taskId: string, text: string): void {
    this.track(this.entry(taskId).then((entry) => entry.doc.append(entry.renderer.user(text))))
  }

  /** An approval waiting for agent.respond: shown with its requestId and the command per option. */
  async pendingApproval(requestId: string, request: ApprovalRequest): Promise<void> {
    const entry = await this.entry(request.taskId)
    entry.doc.append(entry.renderer.approval(requestId, request))
    await entry.doc.flush()
  }

  /** A question waiting for agent.respond. */
  async pendingQuestion(requestId: string, request: QuestionRequest): Promise<void> {
    const entry = await this.entry(request.taskId)
    entry.doc.append(entry.renderer.question(requestId, request))
    await entry.doc.flush()
  }

  /** Notes how a pending request ended ("allowed once", "rejected: timeout", the answer…). */
  answered(taskId: string, requestId: string, outcome: string): void {
    this.track(this.entry(taskId).then((entry) => entry.doc.append(entry.renderer.answered(requestId, outcome))))
  }

  /** agent.showTranscript: shows (and focuses) a task's transcript; false when the task has none. */
  async show(taskId: string, takeFocus = true): Promise<boolean> {
    const existing = this.tasks.get(taskId) ?? (await this.load(taskId))
    if (!existing) return false
    this.title(existing, taskId, `Task ${taskId}`)
    await existing.doc.show(takeFocus)
    return true
  }

  /** Sends everything queued (shutdown, tests). */
  async flush(taskId?: string): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background])
    const entries = taskId ? [this.tasks.get(taskId)].filter((e) => e !== undefined) : [...this.tasks.values()]
    await Promise.all(entries.map((e) => e.doc.flush()))
  }

  private track(work: Promise<unknown>): void {
    const settled = work.catch((error) => this.options.io.log?.(`transcript: ${error instanceof Error ? error.message : String(error)}`))
    this.background.add(settled)
    void settled.finally(() => this.background.delete(settled))
  }

  /** The entry of a task: in memory, else continued from its file (a resumed task), else new. */
  /** Puts the title at the top if it is not there yet (only before the editor has a copy). */
  private title(entry: Entry, taskId: string, title: string): void {
    if (entry.titled) return
    const header = new TranscriptRenderer().header(title, taskId)
    entry.titled = entry.doc.prepend(header)
  }

  private entry(taskId: string): Promise<Entry> {
    const known = this.tasks.get(taskId)
    if (known) return Promise.resolve(known)
    let opening = this.opening.get(taskId)
    if (!opening) {
      opening = (async () => {
        const loaded = await this.load(taskId)
        if (loaded) return loaded
        return this.create(taskId, "", false)
      })().finally(() => this.opening.delete(taskId))
      this.opening.set(taskId, opening)
    }
    return opening
  }

  private async load(taskId: string): Promise<Entry | undefined> {
    const known = this.tasks.get(taskId)
    if (known) return known
    const text = await this.options.io.readFile?.(this.pathOf(taskId)).catch(() => undefined)
    if (text === undefined) return undefined
    const entry = this.create(taskId, text, true)
    entry.doc.append(entry.renderer.continued())
    return entry
  }

  private create(taskId: string, initialText: string, titled: boolean): Entry {
    const entry = {
      titled,
      doc: new TranscriptDocument(this.pathOf(taskId), initialText, this.options.io, this.options.flushDelayMs ?? 100),
      renderer: new TranscriptRenderer(this.options.render ?? DEFAULT_RENDER_OPTIONS),
    }
    this.tasks.set(taskId, entry)
    return entry
  }
}
