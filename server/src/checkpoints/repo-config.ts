import { join } from "node:path"

/**
 * Written to `<git dir>/agent-lsp-ready` once `settings` are applied. A repository made by an older
 * version (an empty marker, or another number) gets them applied again, keeping its history and index.
 */
export const SETTINGS_VERSION = "2"

/** The shadow repository's own config (`git config` key, value); the user's config is never read. */
export function settings(workTree: string, gitDir: string): [string, string][] {
  return [
    ["core.bare", "false"],
    ["core.worktree", workTree],
    ["core.autocrlf", "false"],
    ["core.safecrlf", "false"],
    ["core.fsmonitor", "false"],
    ["core.hooksPath", join(gitDir, "no-hooks")],
    ["core.quotePath", "false"],
    ["user.name", "agent-lsp"],
    ["user.email", "agent-lsp@localhost"],
    ["commit.gpgsign", "false"],
    ["tag.gpgsign", "false"],
    ["gc.auto", "0"],
    // A 100k-file index is ~9 MB: a split index rewrites only the entries a checkpoint changed.
    ["core.splitIndex", "true"],
    // A replaced shared index is deleted at once (git's default keeps each for two weeks: 9 MB per
    // rewrite at 100k files). Only this server's queue uses the index, so none is read while replaced.
    ["splitIndex.sharedIndexExpire", "now"],
    // The untracked cache keeps each folder's stat data and untracked files in the index, so the scan
    // for new files reads only folders whose stat data changed: 0.4 ms instead of ~110 ms of CPU for
    // 100k files in 100 folders. git 2.36+ keeps it for --untracked-files=all only when this is
    // the configured default too.
    ["core.untrackedCache", "true"],
    ["status.showUntrackedFiles", "all"],
  ]
}
