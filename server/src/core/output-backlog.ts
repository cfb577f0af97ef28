/**
 * What the server owes a client and has not delivered: requests read but not answered yet, and messages
 * written but not taken by the client yet. A client that stops reading our stdout (a hung editor, a script
 * that only writes) would otherwise make the server hold an answer for every request it keeps sending,
 * without bound. Each front counts here and stops reading its input while more than `limit` are owed, until
 * half of them are delivered: the client's own writes then block, and our memory stays bounded. Work
 * already running (tasks, commands) goes on meanwhile.
 */
export class OutputBacklog {
  private owed = 0
  private paused = false
  private waiting: (() => void)[] = []
  /** Requests read and not answered, by id (a client may reuse an id; each use counts). */
  private readonly unanswered = new Map<string, number>()

  /** `pauseInput`/`resumeInput`: for a push-style input (a Node stream); pull-style readers await `whenReading`. */
  constructor(
    private readonly limit: number,
    private readonly pauseInput: () => void = () => undefined,
    private readonly resumeInput: () => void = () => undefined,
  ) {}

  /** Counts one write until `written` settles (written or failed). */
  track<T>(written: Promise<T>): Promise<T> {
    this.add()
    const settle = () => this.remove()
    written.then(settle, settle)
    return written
  }

  /** A request was read: it is owed until `answered` is called with its id. */
  requestRead(id: string | number): void {
    const key = `${typeof id}:${id}`
    this.unanswered.set(key, (this.unanswered.get(key) ?? 0) + 1)
    this.add()
  }

  /** A response with this id is being written (its write is tracked on its own). */
  answered(id: string | number | null | undefined): void {
    if (id === null || id === undefined) return
    const key = `${typeof id}:${id}`
    const count = this.unanswered.get(key)
    if (!count) return
    if (count === 1) this.unanswered.delete(key)
    else this.unanswered.set(key, count - 1)
    this.remove()
  }

  /** Resolves at once, or once the client has taken enough of our output to read its input again. */
  whenReading(): Promise<void> {
    return this.paused ? new Promise((resolve) => this.waiting.push(resolve)) : Promise.resolve()
  }

  private add(): void {
    this.owed++
    if (!this.paused && this.owed > this.limit) {
      this.paused = true
      this.pauseInput()
    }
  }

  private remove(): void {
    this.owed--
    if (this.paused && this.owed <= this.limit / 2) {
      this.paused = false
      this.resumeInput()
      for (const wake of this.waiting.splice(0)) wake()
    }
  }
}

/** How many owed messages make a front stop reading its input (a few MB of typical answers). */
export const OUTPUT_BACKLOG_LIMIT = 1000

/** The id of a JSON-RPC request (a method and a string or number id), else undefined. */
export function requestIdOf(message: unknown): string | number | undefined {
  const m = message as { method?: unknown; id?: unknown } | null
  if (!m || typeof m.method !== "string") return undefined
  return typeof m.id === "string" || typeof m.id === "number" ? m.id : undefined
}

/** The id of a JSON-RPC response (no method), else undefined. */
export function responseIdOf(message: unknown): string | number | undefined {
  const m = message as { method?: unknown; id?: unknown } | null
  if (!m || m.method !== undefined) return undefined
  return typeof m.id === "string" || typeof m.id === "number" ? m.id : undefined
}
