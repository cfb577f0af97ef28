import { existsSync, lstatSync } from "node:fs"
import { dirname } from "node:path"
import { homeStartupEntries } from "../config/protected-paths"
import { isInside } from "../workspace/sandbox"
import type { Placeholder } from "./placeholders"

/**
 * The home's startup files (config/protected-paths.ts HOME_STARTUP_PATHS) that lie inside a writable root
 * (a workspace folder, or a folder outside them the user approved writing), sorted by what holds each for a command: an existing one is bound read-only, a symlink
 * is held like any protected link (its target bound, the link itself checked after the command:
 * ./protected-links.ts), and a missing one gets a placeholder at its first missing folder, an empty file for
 * a file (a shell outside that reads an empty `.bashrc` meanwhile runs nothing) and an empty folder for a folder.
 */
export function homeStartupHolds(
  home: string,
  writableRoots: readonly string[],
): { readOnly: string[]; links: string[]; placeholders: Placeholder[] } {
  const out = { readOnly: [] as string[], links: [] as string[], placeholders: [] as Placeholder[] }
  for (const { path, folder: isFolder } of homeStartupEntries(home)) {
    const folder = writableRoots.find((f) => f !== path && isInside(f, path))
    if (folder === undefined) continue
    const stat = lstatSync(path, { throwIfNoEntry: false })
    if (stat?.isSymbolicLink()) out.links.push(path)
    else if (stat) out.readOnly.push(path)
    else out.placeholders.push(firstMissing(path, folder, isFolder ? "dir" : "file"))
  }
  return out
}

/** A placeholder at the first folder of `path` below `folder` that does not exist (or at `path` itself). */
function firstMissing(path: string, folder: string, kind: "dir" | "file"): Placeholder {
  let missing = path
  for (let dir = dirname(path); dir !== folder && !existsSync(dir); dir = dirname(dir)) missing = dir
  return { path: missing, kind: missing === path ? kind : "dir" }
}
