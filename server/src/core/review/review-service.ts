import { pathToFileURL } from "node:url"
import type { ParamsOf, ResultOf } from "@agent-lsp/protocol"
import { unifiedDiff } from "../../edits/unified-diff"
import type { Logger } from "../../task/service"
import type { DiagnosticsPort, EditorPort } from "../../tools/context"
import { hunkContentKey, keepHunk, lineHunks, rebaseUserEdit } from "./hunks"
import { type Listed, targetsOf } from "./decision-targets"
import { DiskTexts } from "./disk-texts"
import { HunkCache } from "./hunk-cache"
import { rejectTargets } from "./reject-targets"
import { ReviewIo } from "./review-io"
import { deletedCreatedFile, ReviewStore, type RejectedFile, type TaskReviewState } from "./review-store"
import { keepStagedHunks, stagedTexts } from "./staged"
import { holdsText } from "./stored-texts"
import { type UndoRejectResult, undoLastReject } from "./undo-reject"

export interface ReviewDeps {
  folders: () => readonly string[]
  stateDir: string
  editor: EditorPort
  log: Logger
  /** Problems before and after a reject, where a source exists (the editor's or our language servers). */
  diagnostics?: DiagnosticsPort
  /** Files that differ now from the task's first checkpoint (undefined: no checkpoint). */
  changesSinceTaskStart: (taskId: string) => Promise<{ path: string; before: string | undefined; binary: boolean }[] | undefined>
  /** The task whose review a task reports into: itself, or its top parent for a subtask. */
  rootOf: (taskId: string) => Promise<string>
  /** What is left to review changed (the core sends the taskUpdate `review`). */
  onChange: (taskId: string, left: { files: number; hunks: number }) => void
}

type Decision = ParamsOf<"reviewDecide">["decisions"][number]
type DecideResult = ResultOf<"reviewDecide">

/**
 * The review of what tasks changed (learnt from Zed's action log): per task and file, the baseline (the text
 * before the agent's first change) and the unreviewed hunks from it to the text now. The user's own edits
 * outside those hunks go into the baseline; keeping a hunk moves it there; rejecting one writes its
 * baseline lines back through the editor. Subtasks report into their top task's review.
 */
export class ReviewService {
  private readonly store: ReviewStore
  private readonly io: ReviewIo
  private readonly states = new Map<string, Promise<TaskReviewState>>()
  private readonly queues = new Map<string, Promise<unknown>>()
  private readonly announce = new Map<string, NodeJS.Timeout>()
  /** Files changed since the last count, per review ("all": count everything again). */
  private readonly touched = new Map<string, Set<string> | "all">()
  /** Reviews with changes not yet written to the store. */
  private readonly unsaved = new Set<string>()
  /** Reviews whose file may not hold what is in memory (a change since the last save that succeeded). */
  private readonly diverged = new Set<string>()
  /** Hunks per file at the last count, per review: what the `review` update reports. */
  private readonly counts = new Map<string, Map<string, number>>()
  /** Per review, each tracked file's hunks for the texts they were computed from, and its text on disk. */
  private readonly caches = new Map<string, { hunks: HunkCache; texts: DiskTexts }>()

  constructor(private readonly deps: ReviewDeps) {
    this.store = new ReviewStore(deps.stateDir)
    this.io = new ReviewIo(deps.editor, deps.folders)
  }

  /** An edit tool changed `path` from `before` (undefined: created) to `after`. */
  agentEdited(taskId: string, path: string, before: string | undefined, after: string): Promise<void> {
    return this.mutate(taskId, [path], (state) => {
      const file = (state.files[path] ??= { baseline: before, byCommand: false, userTouched: [] })
      file.agentText = after
      if (file.baseline === after) delete state.files[path]
    })
  }

  /** A command ran in the task: files it created, changed or deleted since the task began join the review. */
  commandRan(taskId: string): Promise<void> {
    return this.mutate(taskId, "all", async (state, root) => {
      const changes = await this.deps.changesSinceTaskStart(root)
      for (const change of changes ?? []) {
        if (change.binary || state.files[change.path]) continue
        const now = await this.io.read(change.path)
        if (now === change.before) continue
        state.files[change.path] = { baseline: change.before, agentText: now, byCommand: true, userTouched: [] }
      }
    })
  }

  /**
   * The user changed an open buffer from `before` to `after` (not through our applyEdit): edits outside the
   * unreviewed hunks of every review that tracks the file go into its baseline; edits inside join the hunk.
   */
  userEdited(path: string, before: string, after: string): void {
    for (const [root, loading] of this.states)
      void loading.then((state) => {
        if (!state.files[path]) return
        void this.mutate(root, [path], (s) => {
          const file = s.files[path]
          if (!file || file.baseline === undefined) return
          const { baseline, joined } = rebaseUserEdit(file.baseline, before, after)
          const live = new Set(lineHunks(baseline, after).map(hunkContentKey))
          file.baseline = baseline
          file.userTouched = [...new Set([...file.userTouched, ...joined])].filter((key) => live.has(key))
        })
      })
  }

  /** agent/reviewChanges. */
  list(taskId: string): Promise<ResultOf<"reviewChanges">> {
    return this.serial(taskId, async (root) => {
      const listed = await this.listed(root)
      return {
        files: listed.map(({ path, file, current, hunks, ids }) => ({
          uri: pathToFileURL(path).toString(),
          status: !holdsText(file, "baseline")
            ? ("created" as const)
            : current === undefined
              ? ("deleted" as const)
              : ("modified" as const),
          byCommand: file.byCommand,
          hunks: hunks.map((h, i) => ({
            hunkId: ids[i]!,
            range: {
              start: { line: h.newStart, character: 0 },
              end: { line: h.newStart + h.newLines.length, character: 0 },
            },
            oldText: h.oldLines.join(""),
            newText: h.newLines.join(""),
            ...(file.userTouched.length > 0 && file.userTouched.includes(hunkContentKey(h)) ? { userEdited: true } : {}),
          })),
        })),
      }
    })
  }

  /** agent/reviewDecide: the decisions in order; each failure is named and leaves its file as it was. */
  decide(taskId: string, decisions: readonly Decision[]): Promise<DecideResult> {
    return this.serial(taskId, async (root) => {
      const result: DecideResult = { kept: 0, rejected: 0, failed: [] }
      const rejected: RejectedFile[] = []
      const dropped = new Set<string>()
      const signal = AbortSignal.timeout(15_000)
      const problems: NonNullable<DecideResult["problems"]> = []
      const state = await this.state(root)
      const previousReject = state.lastReject
      // What the store holds of this decision: nothing yet; a keep changes the state, a reject saves its record.
      let unsaved = false
      let savedReject: RejectedFile[] | undefined
      for (const decision of decisions) {
        const listed = await this.listed(root)
        const targets = targetsOf(listed, decision)
        if (typeof targets === "string") {
          result.failed.push({
            ...(decision.hunkId ? { hunkId: decision.hunkId } : {}),
            ...(decision.uri ? { uri: decision.uri } : {}),
            reason: targets,
          })
          continue
        }
        if (decision.action === "keep") {
          for (const { entry, hunks } of targets) {
            if (hunks.length === entry.hunks.length) delete state.files[entry.path]
            else entry.file.baseline = [...hunks].reverse().reduce((base, h) => keepHunk(base, h), entry.file.baseline ?? "")
            result.kept += hunks.length
            unsaved = true
          }
          continue
        }
        // The record of the reject is saved before any file changes (while the files' temps are written), so
        // that it can be undone even if the server stops right after: no save is left for after the answer.
        const outcomes = await rejectTargets(
          targets,
          { io: this.io, diagnostics: this.deps.diagnostics, texts: this.cachesOf(root).texts },
          signal,
          async (files) => {
            const record = [...rejected, ...files]
            state.lastReject = record
            // Where the review file holds everything else, only the reject is written beside it.
            const alone = !unsaved && !this.diverged.has(root) && (await this.store.saveReject(root, state))
            if (!alone) await this.persist(root)
            if (!unsaved) savedReject = record
          },
        )
        for (const outcome of outcomes) {
          if ("failure" in outcome) {
            result.failed.push(outcome.failure)
            continue
          }
          const { file } = outcome
          rejected.push(file)
          if (outcome.droppedUserEdits) dropped.add(pathToFileURL(file.path).toString())
          if (deletedCreatedFile(file)) {
            delete state.files[file.path]
            // A record saved alone implies this (a load applies it), but the next reject's record would replace it.
            this.diverged.add(root)
          }
          result.rejected += outcome.count
          problems.push(...outcome.problems)
        }
      }
      state.lastReject = rejected.length > 0 ? rejected : previousReject
      // Saved again only when the store holds other than this: a keep, or a file not rejected after all.
      const stored = savedReject ?? []
      if (unsaved || rejected.length !== stored.length || rejected.some((file, i) => file !== stored[i])) await this.persist(root)
      this.scheduleSave(root, "all", false)
      if (dropped.size > 0) result.droppedUserEdits = [...dropped]
      if (problems.length > 0) result.problems = problems
      return result
    })
  }

  /** agent.review.undoReject: writes back what the last reject removed (./undo-reject.ts), then saves. */
  undoReject(taskId: string): Promise<UndoRejectResult> {
    return this.serial(taskId, async (root) => {
      const result = await undoLastReject(this.io, await this.state(root))
      await this.saved(root)
      return result
    })
  }

  /** The task's unreviewed changes as one unified diff (baseline → now), for agent.review.open and the CLI. */
  diff(taskId: string, relativeTo: (path: string) => string): Promise<string> {
    return this.serial(taskId, async (root) =>
      (await this.listed(root)).map((e) => unifiedDiff(relativeTo(e.path), e.file.baseline, e.current)).join(""),
    )
  }

  /** Writes every pending review file now (shutdown). */
  async flush(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.catch(() => undefined)))
    const pending = [...this.announce.entries()]
    this.announce.clear()
    for (const [root, timer] of pending) {
      clearTimeout(timer)
      if (!this.unsaved.delete(root)) continue
      await this.persist(root).catch((e) => this.deps.log.warn(`review: saving ${root} failed: ${String(e)}`))
    }
  }

  /** Every tracked file with its text now and its hunks; reviewed files (no hunks left) drop out. */
  private async listed(root: string): Promise<Listed[]> {
    const state = await this.state(root)
    const files = new Map(Object.entries(state.files))
    const texts = this.cachesOf(root).texts
    // The git index is read (a process) while the files are.
    const index = stagedTexts(this.deps.folders(), files, (m) => this.deps.log.warn(m))
    const current = await this.io.readAll([...files.keys()], texts)
    const staged = keepStagedHunks(await index, files, current)
    const listed: Listed[] = []
    const { hunks: cache } = this.cachesOf(root)
    for (const path of [...files.keys()].sort()) {
      const file = files.get(path)!
      const now = current.get(path)
      const { hunks, ids } = cache.of(path, file, now)
      if (hunks.length === 0) {
        delete state.files[path]
        continue
      }
      listed.push({ path, file, current: now, hunks, ids })
    }
    cache.keepOnly(listed.map((e) => e.path))
    texts.keepOnly(listed.map((e) => e.path))
    if (staged.length > 0) this.scheduleSave(root, "all")
    this.counts.set(root, new Map(listed.map((e) => [e.path, e.hunks.length])))
    return listed
  }

  private cachesOf(root: string): { hunks: HunkCache; texts: DiskTexts } {
    let caches = this.caches.get(root)
    if (!caches) this.caches.set(root, (caches = { hunks: new HunkCache(), texts: new DiskTexts() }))
    return caches
  }

  private state(root: string): Promise<TaskReviewState> {
    let loading = this.states.get(root)
    if (!loading) {
      loading = this.store.load(root).then(({ state, hunks }) => {
        // The hunks listed before the restart, for the files they were computed for (reused while the texts are the same).
        const cache = this.cachesOf(root).hunks
        for (const [path, stored] of Object.entries(hunks)) {
          const file = state.files[path]
          if (file) cache.seed(path, file, stored)
        }
        return state
      })
      this.states.set(root, loading)
    }
    return loading
  }

  private mutate(
    taskId: string,
    paths: string[] | "all",
    change: (state: TaskReviewState, root: string) => void | Promise<void>,
  ): Promise<void> {
    return this.serial(taskId, async (root) => {
      await change(await this.state(root), root)
      this.scheduleSave(root, paths)
    }).catch((e) => this.deps.log.warn(`review: ${String(e)}`))
  }

  /** One operation at a time per review, so a decision never sees half of an edit. */
  private async serial<T>(taskId: string, work: (root: string) => Promise<T>): Promise<T> {
    const root = await this.deps.rootOf(taskId)
    const previous = this.queues.get(root) ?? Promise.resolve()
    const next = previous.then(
      () => work(root),
      () => work(root),
    )
    this.queues.set(
      root,
      next.catch(() => undefined),
    )
    return next
  }

  private async saved(root: string): Promise<void> {
    await this.persist(root)
    this.scheduleSave(root, "all", false)
  }

  /** Writes the review with the hunks listed for its files as the agent left them (a restart lists those without diffing). */
  private async persist(root: string): Promise<void> {
    const state = await this.state(root)
    this.diverged.delete(root)
    await this.store.save(root, state, this.cachesOf(root).hunks.storable(state.files)).catch((error: unknown) => {
      this.diverged.add(root)
      throw error
    })
  }

  /**
   * Saves soon (edits come in bursts) and then tells the fronts what is left. Only the files changed since
   * the last count are diffed again ("all" after a command or a decision), so a task of many edits costs
   * one file's diff per edit, not the whole review's.
   */
  private scheduleSave(root: string, paths: string[] | "all", save = true): void {
    const pending = this.touched.get(root)
    this.touched.set(root, paths === "all" || pending === "all" ? "all" : new Set([...(pending ?? []), ...paths]))
    if (save) {
      this.unsaved.add(root)
      this.diverged.add(root)
    }
    clearTimeout(this.announce.get(root))
    this.announce.set(
      root,
      setTimeout(() => {
        this.announce.delete(root)
        void this.serial(root, async () => {
          const touched = this.touched.get(root)
          this.touched.delete(root)
          const state = await this.state(root)
          // Counted before saving: the save keeps the hunks the count computed.
          const save = this.unsaved.delete(root)
          try {
            if (touched === "all" || !this.counts.has(root)) await this.listed(root)
            else {
              const counts = this.counts.get(root)!
              for (const path of touched ?? []) {
                const file = state.files[path]
                const n = file
                  ? this.cachesOf(root).hunks.of(path, file, await this.io.read(path, this.cachesOf(root).texts)).hunks.length
                  : 0
                if (n > 0) counts.set(path, n)
                else counts.delete(path)
              }
            }
          } finally {
            if (save) await this.persist(root)
          }
          const counts = this.counts.get(root)!
          this.deps.onChange(root, { files: counts.size, hunks: [...counts.values()].reduce((a, b) => a + b, 0) })
        }).catch((e) => this.deps.log.warn(`review: saving the review of ${root} failed: ${String(e)}`))
      }, 50),
    )
  }
}
