import { statSync } from "node:fs"
import { readRegularFileSync } from "../config/regular-file"
import { readdir } from "node:fs/promises"
import { dirname, join, relative, sep } from "node:path"
import ignore, { type Ignore } from "ignore"
import { isIgnored } from "./ignore-rules"
import { containingRoot } from "./sandbox"

/**
 * Directory listing for list_files: breadth-first (so a capped listing still shows the top levels),
 * honouring `.gitignore` files (the folder root's and nested ones), marking `.rooignore`d entries, and not
 * descending into dependency/build/hidden folders unless asked for them directly.
 */

/** Folders listed but not descended into by a recursive listing (hidden folders are skipped too). */
export const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "__pycache__"])

export interface ListedEntry {
  absPath: string
  isDirectory: boolean
  /** Blocked by .rooignore: shown (marked) but neither read nor descended into. */
  rooIgnored: boolean
  /** A folder the recursive listing did not descend into (dependencies, build output, hidden). */
  notDescended: boolean
}

export interface Listing {
  entries: ListedEntry[]
  /** True when the limit (or the scan budget) cut the listing. */
  truncated: boolean
  /** Set when the walk stopped because it had looked at this many entries, most of them ignored. */
  scanStopped?: number
}

/**
 * The most directory entries one listing looks at, per entry it may return: a tree where nearly everything
 * is .gitignore'd (build output spread through source folders) would otherwise be walked whole to fill
 * the listing.
 */
export const SCAN_PER_ENTRY = 50

interface Rules {
  base: string
  rules: Ignore
}

export async function listDirectory(
  dir: string,
  options: { recursive: boolean; limit: number; workspaceFolders: readonly string[] },
): Promise<Listing> {
  const entries: ListedEntry[] = []
  const budget = Math.max(1000, options.limit * SCAN_PER_ENTRY)
  let scanned = 0
  const queue: { dir: string; rules: Rules[] }[] = [{ dir, rules: ancestorRules(options.workspaceFolders, dir) }]
  for (let head = 0; head < queue.length; head++) {
    const next = queue[head]!
    const rules = withGitignore(next.rules, next.dir)
    let dirents
    try {
      dirents = await readdir(next.dir, { withFileTypes: true })
    } catch {
      continue // unreadable folder: list what we can
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const dirent of dirents) {
      if (++scanned > budget) return { entries, truncated: true, scanStopped: budget }
      if (dirent.name === ".git") continue
      const absPath = join(next.dir, dirent.name)
      // Symlinked folders are listed, never followed (loops, and links out of the workspace).
      const isDirectory = dirent.isDirectory()
      if (gitIgnored(rules, absPath, isDirectory)) continue
      const rooIgnored = isIgnored(options.workspaceFolders, absPath, isDirectory)
      const skipped = isDirectory && (SKIPPED_FOLDERS.has(dirent.name) || dirent.name.startsWith("."))
      if (entries.length >= options.limit) return { entries, truncated: true }
      entries.push({ absPath, isDirectory, rooIgnored, notDescended: options.recursive && skipped && !rooIgnored })
      if (options.recursive && isDirectory && !skipped && !rooIgnored) queue.push({ dir: absPath, rules })
    }
  }
  return { entries, truncated: false }
}

/** The .gitignore rules of the folders from the workspace root down to (not including) `dir`. */
function ancestorRules(workspaceFolders: readonly string[], dir: string): Rules[] {
  const root = containingRoot(workspaceFolders, dir)
  if (!root || root === dir) return []
  const chain: string[] = []
  for (let d = dirname(dir); d.length >= root.length; d = dirname(d)) {
    chain.unshift(d)
    if (d === root) break
  }
  return chain.reduce<Rules[]>((acc, d) => withGitignore(acc, d), [])
}

function withGitignore(rules: Rules[], dir: string): Rules[] {
  const file = join(dir, ".gitignore")
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return rules
  try {
    return [...rules, { base: dir, rules: ignore().add(readRegularFileSync(file).toString("utf8")) }]
  } catch {
    return rules
  }
}

function gitIgnored(rules: Rules[], absPath: string, isDirectory: boolean): boolean {
  for (const { base, rules: ig } of rules) {
    const rel = relative(base, absPath).split(sep).join("/")
    if (rel && ig.ignores(isDirectory ? `${rel}/` : rel)) return true
  }
  return false
}
