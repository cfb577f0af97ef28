import { statSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path"

/**
 * The one list of protected paths, read by the tools' approval policy (approval/) and by the OS sandbox
 * (sandbox/), which binds the existing ones read-only under every command.
 *
 * Files that configure the agent itself or the editor: a write to one always asks, whatever the
 * auto-approval settings (a prompt-injected model must not be able to loosen its own rules).
 */
export const PROTECTED_NAMES: ReadonlySet<string> = new Set([
  ".rooignore",
  ".roomodes",
  "agents.md",
  // Editors and shells run these when the folder is opened or entered: a write is code execution later.
  ".nvim.lua",
  ".nvimrc",
  ".exrc",
  ".lazy.lua",
  ".envrc",
  ".dir-locals.el",
  ".dir-locals-2.el",
  // Vim with 'exrc' sources these from the folder it starts in.
  ".vimrc",
  ".gvimrc",
])
// `.agents/` holds skills (`.agents/skills/<name>/SKILL.md`) that reach every task's prompt, like `.roo/skills/`.
export const PROTECTED_DIRS: ReadonlySet<string> = new Set([".roo", ".agents", ".vscode", ".git", ".helix", ".zed", ".idea", ".agent-lsp"])

/**
 * What the sandbox keeps read-only inside a git directory (`.git`, or a folder that looks like a bare
 * repository: HEAD, objects/, refs/). The tools protect the whole of `.git`, but a command is allowed to be
 * git itself, which must write objects, the index and refs; what turns a write there into code execution
 * later is the configuration (core.fsmonitor, core.hooksPath, aliases, filters), the hooks, and `commondir`
 * (a path git then takes the config and hooks from: `echo /tmp/x > .git/commondir` makes git read /tmp/x/config).
 */
export const GIT_DIR_READ_ONLY: readonly string[] = ["config", "hooks", "info", "commondir", "config.worktree"]

/**
 * What the sandbox keeps read-only in a linked worktree's folder inside a git directory (`.git/worktrees/NAME`,
 * made by `git worktree add`): `commondir` names the repository the worktree takes its config and hooks from
 * (rewritten, the user's next git in that worktree runs another config's core.fsmonitor), and
 * `config.worktree` is read as config once extensions.worktreeConfig is on.
 */
export const WORKTREE_ADMIN_READ_ONLY: readonly string[] = ["commondir", "config.worktree"]

/** The config file git reads per worktree, but only where the repository's config sets extensions.worktreeConfig. */
export const WORKTREE_CONFIG = "config.worktree"

/**
 * Files and folders of the user's home that shells, git, editors, the desktop and PATH read at login or
 * start: a write to one is code that runs later, outside the sandbox, with the user's full rights. They
 * matter where the home lies inside a writable workspace folder (an editor opened on `~`, or on `~/.config`).
 * Relative to $HOME.
 */
export const HOME_STARTUP_PATHS: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".pam_environment",
  ".xprofile",
  ".xsessionrc",
  ".gitconfig",
  ".vimrc",
  ".emacs",
  ".tmux.conf",
  // Folders end in "/".
  ".emacs.d/",
  ".config/git/",
  ".config/fish/",
  ".config/nvim/",
  ".config/emacs/",
  ".config/autostart/",
  ".config/systemd/",
  ".config/environment.d/",
  ".local/bin/",
]

/** HOME_STARTUP_PATHS in `home`: each absolute path (without a folder's trailing "/"), and whether it is a folder. */
export function homeStartupEntries(home: string = homedir()): { path: string; folder: boolean }[] {
  return HOME_STARTUP_PATHS.map((rel) => ({ path: join(home, rel.replace(/\/$/, "")), folder: rel.endsWith("/") }))
}

/** HOME_STARTUP_PATHS in `home` (absolute, without the folders' trailing "/"). */
export function homeStartupPaths(home: string = homedir()): string[] {
  return homeStartupEntries(home).map((entry) => entry.path)
}

/** What is protected outside the workspace's own names: the agent's config folder and the home's startup files. */
export function defaultProtectedDirs(): string[] {
  return [userConfigDir(), ...homeStartupPaths()]
}

/** The user's agent-lsp configuration folder (settings.json, custom modes): protected too. */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "agent-lsp")
}

/**
 * True when `path` (relative to a workspace folder, or absolute) is protected: one of PROTECTED_NAMES
 * (`.rooignore`, `.roomodes`, `AGENTS.md`, `.nvim.lua`, `.exrc`, `.envrc`, …) at any depth, anything under
 * one of PROTECTED_DIRS (`.roo/`, `.vscode/`, `.git/`, `.helix/`, `.zed/`, `.idea/`, `.agent-lsp/`), or
 * anything in one of `protectedDirs` (absolute; by default defaultProtectedDirs()), or anything
 * in a workspace folder that looks like a git repository's own folder (HEAD, objects/, refs/).
 */
export function isProtectedPath(
  path: string,
  workspaceFolders: readonly string[],
  protectedDirs: readonly string[] = defaultProtectedDirs(),
): boolean {
  const unified = path.replaceAll("\\", "/")
  const candidates: string[] = [unified]
  if (isAbsolute(path)) {
    for (const dir of protectedDirs) if (inside(dir, path)) return true
    for (const folder of workspaceFolders) if (inside(folder, path)) candidates.push(relative(folder, path).split(sep).join("/"))
  } else {
    for (const folder of workspaceFolders) for (const dir of protectedDirs) if (inside(dir, join(folder, path))) return true
  }
  const named = candidates.some((candidate) => {
    const segments = candidate.split("/").filter((s) => s !== "" && s !== ".")
    const lower = segments.map(comparableName)
    if (PROTECTED_NAMES.has(lower[lower.length - 1] ?? "")) return true
    return lower.slice(0, -1).some((segment) => PROTECTED_DIRS.has(segment)) || PROTECTED_DIRS.has(lower[lower.length - 1] ?? "")
  })
  return named || insideGitDirLike(path, workspaceFolders)
}

/** Code points HFS+ leaves out of names when it compares them: `.g\u200cit` is `.git` there (CVE-2014-9390). */
const IGNORED_BY_HFS = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u206a-\u206f\ufeff]/gu

/**
 * A name as the protected lists are compared with it: the forms that file systems open as the same file.
 * NFC (macOS stores NFD) without what HFS+ ignores, case folded (macOS, Windows, git's core.ignorecase), and
 * without trailing dots and spaces or an NTFS stream suffix (Windows opens `.git./config` and
 * `.git::$INDEX_ALLOCATION/config` as `.git/config`). On Linux these are other files; they only ask too.
 */
function comparableName(name: string): string {
  return name
    .normalize("NFC")
    .replace(IGNORED_BY_HFS, "")
    .toLowerCase()
    .replace(/::\$[a-z_]*$/, "")
    .replace(/[. ]+$/, "")
}

/**
 * True when `path` is in (or is) a folder inside a workspace folder that git would take for a repository
 * of its own: HEAD, objects/ and refs/ (a bare repository, or a .git folder under another name). Its
 * config can name programs git runs (core.fsmonitor, hooks), so it is protected like `.git`. Looks at the
 * disk: the folders between the path and its workspace folder.
 */
function insideGitDirLike(path: string, workspaceFolders: readonly string[]): boolean {
  const absolutes = isAbsolute(path) ? [path] : workspaceFolders.map((folder) => join(folder, path))
  return absolutes.some((abs) => {
    const folder = workspaceFolders.find((f) => inside(f, abs))
    if (folder === undefined) return false
    for (let dir = resolve(abs); inside(folder, dir); dir = dirname(dir)) {
      if (looksLikeGitDir(dir)) return true
      if (dir === resolve(folder)) break
    }
    return false
  })
}

/** HEAD, objects/ and refs/: what git takes for a repository's own folder. */
export function looksLikeGitDir(dir: string): boolean {
  try {
    return (
      statSync(join(dir, "HEAD"), { throwIfNoEntry: false })?.isFile() === true &&
      statSync(join(dir, "objects"), { throwIfNoEntry: false })?.isDirectory() === true &&
      statSync(join(dir, "refs"), { throwIfNoEntry: false })?.isDirectory() === true
    )
  } catch {
    return false
  }
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path)
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))
}
