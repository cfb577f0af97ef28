import { type FSWatcher, watch } from "node:fs"
import { dirname } from "node:path"
import { setImmediate as nextTurn } from "node:timers/promises"

/** Results kept at most: one per workspace (and mode, for rules) in practice. */
const MAX_ENTRIES = 32

interface Entry<T> {
  value: Promise<T>
  watchers: FSWatcher[]
}

/**
 * What was read from files under some folders, kept until one of those folders reports a change (fs.watch:
 * a file in it written, created, removed or renamed), so the prompt's rules and skills are not re-read
 * before every model request. A folder that does not exist is covered by watching its nearest existing
 * parent, where its creation shows. Where a folder cannot be watched (no inotify watches left), nothing is
 * kept and every call reads afresh.
 */
export class WatchedCache<T> {
  private readonly entries = new Map<string, Entry<T>>()

  /**
   * The kept value for `key`, or `load()`'s. `load` names each folder its result depends on before it reads
   * in it (`watchDir`), so a change during the read is not missed.
   */
  async get(key: string, load: (watchDir: (dir: string) => void) => Promise<T>): Promise<T> {
    if (this.entries.has(key)) {
      // A write that finished before this call has queued its event: let it arrive before trusting the entry.
      // The second immediate runs in the next loop iteration, so a poll phase (where watch events arrive) lies
      // between the call and the check, whichever phase the call came from.
      await nextTurn()
      await nextTurn()
      const kept = this.entries.get(key)
      if (kept) return kept.value
    }
    const entry: Entry<T> = { value: Promise.resolve(undefined as T), watchers: [] }
    let watchable = true
    const drop = () => {
      for (const watcher of entry.watchers) watcher.close()
      if (this.entries.get(key) === entry) this.entries.delete(key)
    }
    const watched = new Set<string>()
    const watchDir = (dir: string) => {
      for (let at = dir; watchable && !watched.has(at); at = dirname(at)) {
        watched.add(at)
        try {
          const watcher = watch(at, { persistent: false }, drop)
          watcher.on("error", drop)
          entry.watchers.push(watcher)
          return
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code
          if ((code !== "ENOENT" && code !== "ENOTDIR") || dirname(at) === at) watchable = false
        }
      }
    }
    if (this.entries.size >= MAX_ENTRIES) this.clear()
    this.entries.set(key, entry)
    entry.value = load(watchDir).then(
      (value) => {
        if (!watchable) drop()
        return value
      },
      (error) => {
        drop()
        throw error
      },
    )
    return entry.value
  }

  /** Forgets every kept value and stops watching. */
  clear(): void {
    for (const entry of this.entries.values()) for (const watcher of entry.watchers) watcher.close()
    this.entries.clear()
  }
}
