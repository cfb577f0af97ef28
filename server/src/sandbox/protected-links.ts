import { lstatSync, readlinkSync, renameSync, symlinkSync } from "node:fs"

/**
 * A protected path that is a symlink (AGENTS.md → CLAUDE.md, a dotfile manager's ~/.bashrc →
 * ~/dotfiles/bashrc) cannot be held by a mount: mount(2) follows the link, so the sandbox binds what it points
 * to read-only, but the link itself stays an entry of a writable folder, which a command may remove and
 * replace with a file of its own (a new `.envrc` that direnv runs, an `AGENTS.md` prompt injection). No mount
 * can cover a symlink, so each one is recorded before the command and checked once it has ended (every
 * process of its sandbox is gone by then): a link removed or replaced is put back, and what the command left
 * at its place is kept beside it under a name nothing reads, so nothing is lost.
 */

export interface LinkRecord {
  path: string
  /** What the link said (readlink), exactly. */
  target: string
}

/** The symlinks among `paths` as they are now (paths that are not symlinks are left out). */
export function recordLinks(paths: readonly string[]): LinkRecord[] {
  const records: LinkRecord[] = []
  for (const path of new Set(paths)) {
    try {
      if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) records.push({ path, target: readlinkSync(path) })
    } catch {
      // Unreadable: nothing to hold (the scan binds what it can).
    }
  }
  return records
}

/** Where a replaced link's stand-in is kept: beside it, under a name no editor, shell or agent reads. */
export function keptAsidePath(path: string, now: number = Date.now()): string {
  return `${path}.replaced-by-command-${now}`
}

/**
 * Puts back each recorded link that is gone or changed. Returns one line per repair (or failed repair) for
 * the command's output, so the model and the user see what the command tried.
 */
export function repairLinks(records: readonly LinkRecord[]): string[] {
  const notes: string[] = []
  for (const { path, target } of records) {
    let kept: string | undefined
    try {
      const stat = lstatSync(path, { throwIfNoEntry: false })
      if (stat?.isSymbolicLink() && readlinkSync(path) === target) continue
      if (stat) {
        kept = keptAsidePath(path)
        renameSync(path, kept)
      }
      symlinkSync(target, path)
      notes.push(
        `the command removed or replaced the protected symlink ${path} (→ ${target}); it is put back` +
          (kept ? `, and what the command left there is kept at ${kept}` : "") +
          ". Protected paths are changed with the file tools, which ask the user.",
      )
    } catch (error) {
      notes.push(
        `the command removed or replaced the protected symlink ${path} (→ ${target}) and it could not be put back` +
          ` (${error instanceof Error ? error.message : String(error)})` +
          (kept ? `; what the command left there is at ${kept}` : "") +
          ". Check it before anything reads it.",
      )
    }
  }
  return notes
}
