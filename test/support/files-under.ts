import { lstatSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * Every regular file under `dir` (recursively) with its text: what a test searches for a secret that must
 * not be on disk. The server may still be writing there (a checkpoint's git takes `config.lock` and renames
 * it away), so an entry that is gone between the listing and the read is skipped: it no longer holds
 * anything. A missing `dir` has no files. Symlinks are not followed (the state folder has none of its own).
 */
export function filesUnder(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = []
  const walk = (folder: string) => {
    let names: string[]
    try {
      names = readdirSync(folder)
    } catch (error) {
      if (gone(error)) return
      throw error
    }
    for (const name of names) {
      const path = join(folder, name)
      try {
        const stat = lstatSync(path)
        if (stat.isDirectory()) walk(path)
        else if (stat.isFile()) out.push({ path, text: readFileSync(path, "latin1") })
      } catch (error) {
        if (!gone(error)) throw error
      }
    }
  }
  walk(dir)
  return out
}

/** The text of every file under `dir`, for a search across all of them. */
export const textsUnder = (dir: string): string[] => filesUnder(dir).map((file) => file.text)

const gone = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT"
