import { unwatchFile, watch, watchFile, type FSWatcher, type Stats } from "node:fs"
import { join } from "node:path"

/**
 * Watches the folders the index scanned (one non-recursive fs.watch each: a recursive watch would also
 * walk node_modules and the other folders the index skips) and the git HEAD (a branch switch). Events are
 * gathered for `debounceMs` and handed over as one batch of absolute paths.
 */

export interface FolderWatchOptions {
  root: string
  onChanges(paths: string[]): void
  /** `.git/HEAD` changed: another branch or commit is checked out. */
  onHeadChange(): void
  onError(message: string): void
  debounceMs?: number
  /** Most folders watched at once; beyond it, changes there are seen by the next re-scan only. */
  maxFolders?: number
}

export class FolderWatcher {
  private readonly watchers = new Map<string, FSWatcher>()
  private pending = new Set<string>()
  private timer: NodeJS.Timeout | undefined
  private readonly headFile: string
  private warnedLimit = false
  private disposed = false

  constructor(private readonly options: FolderWatchOptions) {
    this.headFile = join(options.root, ".git", "HEAD")
    watchFile(this.headFile, { interval: 1000, persistent: false }, this.onHead)
  }

  get watchedCount(): number {
    return this.watchers.size
  }

  /** Starts watching these folders (already watched ones are kept). */
  watchFolders(folders: readonly string[]): void {
    for (const folder of folders) {
      if (this.disposed || this.watchers.has(folder)) continue
      if (this.watchers.size >= (this.options.maxFolders ?? 5000)) {
        if (!this.warnedLimit)
          this.options.onError(
            `codebase index: watching the first ${this.watchers.size} folders only; changes elsewhere are picked up by a rebuild`,
          )
        this.warnedLimit = true
        return
      }
      try {
        const watcher = watch(folder, { persistent: false }, (_event, name) => this.onEvent(folder, name))
        watcher.on("error", () => this.unwatch(folder))
        this.watchers.set(folder, watcher)
      } catch (error) {
        // ENOSPC (inotify limit) or a folder that vanished: the index still works, it just sees less.
        if ((error as NodeJS.ErrnoException).code === "ENOSPC")
          this.options.onError("codebase index: the system's file-watch limit is reached; changes are picked up by a rebuild")
      }
    }
  }

  /** Stops watching `folder` and every folder under it (it was deleted or became ignored). */
  unwatch(folder: string): void {
    for (const [path, watcher] of this.watchers) {
      if (path === folder || path.startsWith(`${folder}/`)) {
        watcher.close()
        this.watchers.delete(path)
      }
    }
  }

  dispose(): void {
    this.disposed = true
    unwatchFile(this.headFile, this.onHead)
    for (const watcher of this.watchers.values()) watcher.close()
    this.watchers.clear()
    if (this.timer) clearTimeout(this.timer)
  }

  private onEvent(folder: string, name: string | Buffer | null): void {
    if (this.disposed) return
    // Without a name (some platforms) the whole folder is looked at again.
    this.pending.add(name ? join(folder, name.toString()) : folder)
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.flush(), this.options.debounceMs ?? 300)
    this.timer.unref()
  }

  private flush(): void {
    const paths = [...this.pending]
    this.pending = new Set()
    this.timer = undefined
    if (paths.length > 0 && !this.disposed) this.options.onChanges(paths)
  }

  private readonly onHead = (current: Stats, previous: Stats): void => {
    if (this.disposed || (current.mtimeMs === previous.mtimeMs && current.size === previous.size)) return
    this.options.onHeadChange()
  }
}
