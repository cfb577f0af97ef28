import { fileVersionSync } from "../../config/file-version"

/**
 * The review lists every file of a task on each refresh, as `git diff` does; like git, it compares what
 * `lstat` says with what it said when the file was last read, and reads only files that changed since
 * (config/file-version.ts says when that comparison can be trusted). The calls are synchronous: a listing
 * makes one or a few per file, each a few microseconds, and a round trip through the thread pool per call
 * cost a thousand-file listing several times the work itself (callers read in slices, see ReviewIo).
 */
export class DiskTexts {
  private readonly known = new Map<string, { version: string; text: string }>()

  /** The text of `path` (undefined: absent or unreadable), from `readDisk` unless the file is as it was. */
  read(path: string, readDisk: (path: string) => string | undefined): string | undefined {
    const known = this.known.get(path)
    const version = fileVersionSync(path)
    if (known && version && known.version === version.key) return known.text
    this.known.delete(path)
    const text = readDisk(path)
    if (text !== undefined && version?.settled) this.known.set(path, { version: version.key, text })
    return text
  }

  /** Forgets every file but `paths` (those still in the review). */
  keepOnly(paths: Iterable<string>): void {
    const keep = new Set(paths)
    for (const path of this.known.keys()) if (!keep.has(path)) this.known.delete(path)
  }
}
