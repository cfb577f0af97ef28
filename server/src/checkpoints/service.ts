import { chmod, lstat, mkdir, readdir, rmdir, symlink, unlink } from "node:fs/promises"
import { dirname, join, sep } from "node:path"
import { workspaceKey } from "../config/paths"
import { writeFileAtomic } from "../workspace/atomic-write"
import { realPathOf, resolvePath } from "../workspace/sandbox"
import { splitNul } from "./git"
import { ShadowRepo } from "./shadow-repo"
import { CheckpointStore, type CheckpointRecord } from "./store"
import { UnknownCheckpointError } from "./errors"

/** What a checkpoint is tied to. */
export interface CheckpointRequest {
  taskId: string
  /** The assistant turn (or user message) number within the task. */
  turn: number
  /** The tool call that triggered it; absent for a checkpoint taken when the user sent a message. */
  callId?: string
  label: string
}

/** As listed by agent/listCheckpoints. */
export interface CheckpointInfo {
  id: string
  createdAt: string
  label: string
  files: string[]
}

/** One file a restore changed: its new text, or that it was deleted. The core pushes `text` into open buffers. */
export type RestoredFile =
  | { path: string; relative: string; deleted: false; text: string; binary: boolean }
  | { path: string; relative: string; deleted: true }

export interface CheckpointServiceOptions {
  /** The workspace folder (absolute). */
  workspace: string
  /** agent.stateDir: the shadow repository lives in `<stateDir>/checkpoints/<workspace hash>`. */
  stateDir: string
  /** settings.checkpoints.maxFileBytes, read at each checkpoint. */
  maxFileBytes: () => number
}

/**
 * Shadow-git checkpoints of one workspace folder. Operations are serialised (one git index). Errors
 * are thrown as exceptions with git's message; the caller reports them and the task goes on.
 */
export class CheckpointService {
  private readonly repo: ShadowRepo
  private readonly store: CheckpointStore
  private queue: Promise<unknown> = Promise.resolve()
  private headId: string | undefined

  constructor(private readonly options: CheckpointServiceOptions) {
    const gitDir = join(options.stateDir, "checkpoints", workspaceKey(options.workspace))
    this.repo = new ShadowRepo(gitDir, options.workspace, options.maxFileBytes)
    this.store = new CheckpointStore(join(gitDir, "checkpoints.jsonl"))
  }

  /** The shadow repository's git dir (for diagnostics). */
  get gitDir(): string {
    return this.repo.gitDir
  }

  /** Snapshots the workspace now. */
  create(request: CheckpointRequest): Promise<CheckpointInfo> {
    return this.serial(async () => {
      const tree = await this.repo.snapshotTree()
      const parent = await this.head()
      const args = [
        "commit-tree",
        tree,
        "-m",
        `${request.label}\n\ntask ${request.taskId} turn ${request.turn}${request.callId ? ` call ${request.callId}` : ""}`,
      ]
      if (parent) args.push("-p", parent)
      // "files" = what changed since this task's previous checkpoint (else the workspace's previous one),
      // computed against the new tree while the commit is written.
      const previous = (await this.store.all()).filter((r) => r.taskId === request.taskId).at(-1)?.id ?? parent
      const [commit, changed] = await Promise.all([
        this.repo.run(args),
        previous ? this.repo.run(["diff-tree", "-r", "-z", "--name-only", "--no-renames", previous, tree]) : undefined,
      ])
      const id = commit.toString("utf8").trim()
      await this.repo.setRef("refs/heads/checkpoints", id)
      this.headId = id
      const files = changed ? splitNul(changed) : []
      const record: CheckpointRecord = {
        id,
        taskId: request.taskId,
        turn: request.turn,
        callId: request.callId,
        label: request.label,
        createdAt: new Date().toISOString(),
        files,
      }
      await this.store.add(record)
      return info(record)
    })
  }

  /**
   * Stages the workspace without recording a checkpoint, so the first real checkpoint only hashes what
   * changed since. Worth calling in the background when a task starts (the first staging of a large
   * workspace hashes every file).
   */
  async warm(): Promise<void> {
    await this.serial(() => this.repo.snapshotTree())
  }

  /** The task's checkpoints, oldest first, including every one asked for before this call (they are queued). */
  async list(taskId: string): Promise<CheckpointInfo[]> {
    await this.queue
    return (await this.store.all()).filter((r) => r.taskId === taskId).map(info)
  }

  /**
   * Forgets a deleted task's checkpoints: they are listed and restorable no more. Their snapshots stay
   * objects of the shadow repository, which every task of the workspace shares as one history.
   */
  forgetTask(taskId: string): Promise<number> {
    return this.serial(() => this.store.removeTask(taskId))
  }

  /** The record of a checkpoint of this workspace, or undefined. */
  find(id: string): Promise<CheckpointRecord | undefined> {
    return this.store.find(id)
  }

  /** Unified diff from checkpoint `id` to checkpoint `toId`, or to the workspace as it is now. */
  diff(id: string, toId?: string): Promise<string> {
    return this.serial(async () => {
      const from = await this.known(id)
      const to = toId ? await this.known(toId) : await this.repo.snapshotTree()
      return (await this.repo.run(["diff", "--no-color", "--no-ext-diff", "--no-renames", from, to])).toString("utf8")
    })
  }

  /**
   * Every file that differs between checkpoint `id` and the workspace now, with its text at the checkpoint
   * (undefined: it did not exist then). The review uses it to find what commands changed since a task began.
   */
  changesSince(id: string): Promise<{ path: string; before: string | undefined; binary: boolean }[]> {
    return this.serial(async () => {
      const then = await this.known(id)
      const now = await this.repo.snapshotTree()
      // Seen from now back to then: "changed" paths hold then's blob, "deleted" ones did not exist then.
      const { changed, deleted } = await this.repo.treeChanges(now, then)
      const blobs = await this.repo.readBlobs(changed.map(([, e]) => e.oid))
      const files: { path: string; before: string | undefined; binary: boolean }[] = deleted.map((path) => ({
        path: this.absolute(path),
        before: undefined,
        binary: false,
      }))
      for (const [path, entry] of changed) {
        const bytes = blobs.get(entry.oid)!
        const binary = bytes.includes(0) || entry.mode === "120000"
        files.push({ path: this.absolute(path), before: binary ? undefined : bytes.toString("utf8"), binary })
      }
      return files
    })
  }

  /** Puts the workspace back as it was at checkpoint `id`; returns every file it wrote or deleted. */
  restore(id: string): Promise<RestoredFile[]> {
    return this.serial(async () => {
      const target = await this.known(id)
      const now = await this.repo.snapshotTree()
      const { changed, deleted } = await this.repo.treeChanges(now, target)
      const blobs = await this.repo.readBlobs(changed.map(([, e]) => e.oid))
      // Every file is placed before any is touched: a folder on the way that is now a symbolic link out of the
      // workspace (one a .gitignore hides from the snapshot) would carry the write, or the delete, out there.
      for (const path of [...deleted, ...changed.map(([p]) => p)]) this.mustStayInside(path)
      const restored: RestoredFile[] = []
      for (const path of deleted) {
        const absolute = this.absolute(path)
        await unlink(absolute).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? undefined : Promise.reject(e)))
        await this.removeEmptyParents(dirname(absolute))
        restored.push({ path: absolute, relative: path, deleted: true })
      }
      for (const [path, entry] of changed) {
        const absolute = this.absolute(path)
        const bytes = blobs.get(entry.oid)!
        await this.writeEntry(absolute, entry.mode, bytes)
        const binary = bytes.includes(0)
        restored.push({ path: absolute, relative: path, deleted: false, text: binary ? "" : bytes.toString("utf8"), binary })
      }
      return restored
    })
  }

  private async writeEntry(absolute: string, mode: string, bytes: Buffer): Promise<void> {
    await mkdir(dirname(absolute), { recursive: true })
    const existing = await lstat(absolute).catch(() => undefined)
    if (mode === "120000") {
      if (existing) await unlink(absolute)
      await symlink(bytes.toString("utf8"), absolute)
      return
    }
    // A symlink or a folder where a file belongs is replaced; a regular file is rewritten in place.
    if (existing && !existing.isFile()) await unlink(absolute)
    // Atomic, and re-checked against the workspace right before its rename (atomic-write.ts).
    await writeFileAtomic(absolute, bytes, { workspaceFolders: [this.options.workspace] })
    const executable = mode === "100755"
    const current = (await lstat(absolute)).mode & 0o777
    const wanted = executable ? current | 0o111 : current & ~0o111
    if (wanted !== current) await chmod(absolute, wanted)
  }

  private async removeEmptyParents(dir: string): Promise<void> {
    const root = this.options.workspace
    while (dir.startsWith(root + sep) && (await readdir(dir).catch(() => ["?"])).length === 0) {
      await rmdir(dir).catch(() => undefined)
      dir = dirname(dir)
    }
  }

  /** Throws, naming the path and where it would land, unless the folder of `relative` really lies in the workspace. */
  private mustStayInside(relative: string): void {
    const folder = dirname(this.absolute(relative))
    const sandbox = { workspaceFolders: [this.options.workspace], settings: { files: { readOutsideWorkspace: false } } }
    if (resolvePath(sandbox, folder, "write").ok) return
    throw new Error(
      `Nothing was restored: ${relative} would be written at ${join(realPathOf(folder), relative.split("/").at(-1)!)}, outside the ` +
        `workspace, because a folder on its way is now a symbolic link. Remove or rename that link, then restore again.`,
    )
  }

  private absolute(relative: string): string {
    const absolute = join(this.options.workspace, relative)
    if (!absolute.startsWith(this.options.workspace + sep)) throw new Error(`checkpoint path escapes the workspace: ${relative}`)
    return absolute
  }

  private async known(id: string): Promise<string> {
    const record = await this.store.find(id)
    if (!record) throw new UnknownCheckpointError(id)
    return record.id
  }

  /** The latest checkpoint commit (cached: only this service moves the ref, under the queue). */
  private async head(): Promise<string | undefined> {
    this.headId ??= await this.repo.run(["rev-parse", "--verify", "-q", "refs/heads/checkpoints"]).then(
      (out) => out.toString("utf8").trim() || undefined,
      () => undefined,
    )
    return this.headId
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }
}

function info(record: CheckpointRecord): CheckpointInfo {
  return { id: record.id, createdAt: record.createdAt, label: record.label, files: record.files }
}
