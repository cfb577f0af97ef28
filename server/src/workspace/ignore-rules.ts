import { statSync } from "node:fs"
import ignore, { type Ignore } from "ignore"
import { readRegularFileSync } from "../config/regular-file"
import { join, relative, resolve, sep } from "node:path"
import { containingRoot } from "./sandbox"

/**
 * `.rooignore` rules (gitignore syntax) at the root of each workspace folder. Ignored paths are refused to
 * read, write and edit tools, filtered out of search, marked in listings, and refused as a command's working
 * directory or as the file argument of a file-reading command (see ./command-paths.ts). A shell can still
 * reach them: this guards the agent's tools, it is not a security boundary.
 */

export const ROOIGNORE_FILE = ".rooignore"

interface CachedRules {
  mtimeMs: number
  size: number
  rules: Ignore | undefined
}

const cache = new Map<string, CachedRules>()

/**
 * The rules of one folder root, or undefined when it has no `.rooignore`. Cached; re-read when the file's
 * mtime or size changes (one stat per call, so edits to `.rooignore` apply at once).
 */
export function rulesFor(root: string): Ignore | undefined {
  const file = join(root, ROOIGNORE_FILE)
  let stat: { mtimeMs: number; size: number } | undefined
  try {
    // Most folders have no .rooignore: asked without an exception (an Error with its stack, per path checked).
    stat = statSync(file, { throwIfNoEntry: false })
  } catch {
    stat = undefined
  }
  if (!stat) {
    cache.delete(root)
    return undefined
  }
  const hit = cache.get(root)
  if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.rules
  let rules: Ignore | undefined
  try {
    rules = ignore().add(readRegularFileSync(file).toString("utf8").normalize("NFC"))
  } catch {
    rules = undefined
  }
  cache.set(root, { mtimeMs: stat.mtimeMs, size: stat.size, rules })
  return rules
}

/**
 * True when `absPath` is ignored by the `.rooignore` of the workspace folder holding it. Paths outside every
 * folder, the folder roots themselves and `.rooignore` itself are never ignored. Pass `isDirectory` for a
 * folder so that `dir/` patterns match it.
 */
export function isIgnored(workspaceFolders: readonly string[], absPath: string, isDirectory = false): boolean {
  const folders = workspaceFolders.map((f) => resolve(f))
  const target = resolve(absPath)
  const root = containingRoot(folders, target)
  if (!root) return false
  const rules = rulesFor(root)
  if (!rules) return false
  // NFC on both sides: a name stored decomposed (as macOS writes é) still matches the rule the user typed.
  const rel = relative(root, target).split(sep).join("/").normalize("NFC")
  if (rel === "" || rel === ROOIGNORE_FILE) return false
  return rules.ignores(isDirectory ? `${rel}/` : rel)
}

/** The error the model gets for an ignored path (Roo-Code's shape). `path` as the model wrote it. */
export function rooIgnoreError(path: string): string {
  return JSON.stringify({ status: "error", type: "access_denied", message: "Access blocked by .rooignore", path })
}
