import { homedir } from "node:os"
import { isAbsolute, join, relative, sep } from "node:path"

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
])
export const PROTECTED_DIRS: ReadonlySet<string> = new Set([".roo", ".vscode", ".git", ".helix", ".zed", ".idea", ".agent-lsp"])

/**
 * What the sandbox keeps read-only inside a git directory (`.git`, or a folder that looks like a bare
 * repository: HEAD, objects/, refs/). The tools protect the whole of `.git`, but a command is allowed to be
 * git itself, which must write objects, the index and refs; what turns a write there into code execution
 * later is the configuration (core.fsmonitor, core.hooksPath, aliases, filters) and the hooks.
 */
export const GIT_DIR_READ_ONLY: readonly string[] = ["config", "hooks", "info"]

/** The user's agent-lsp configuration folder (settings.json, custom modes): protected too. */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "agent-lsp")
}

/**
 * True when `path` (relative to a workspace folder, or absolute) is protected: one of PROTECTED_NAMES
 * (`.rooignore`, `.roomodes`, `AGENTS.md`, `.nvim.lua`, `.exrc`, `.envrc`, …) at any depth, anything under
 * one of PROTECTED_DIRS (`.roo/`, `.vscode/`, `.git/`, `.helix/`, `.zed/`, `.idea/`, `.agent-lsp/`), or
 * anything in one of `protectedDirs` (absolute; by default the user's agent-lsp config folder).
 */
export function isProtectedPath(
  path: string,
  workspaceFolders: readonly string[],
  protectedDirs: readonly string[] = [userConfigDir()],
): boolean {
  const unified = path.replaceAll("\\", "/")
  const candidates: string[] = [unified]
  if (isAbsolute(path)) {
    for (const dir of protectedDirs) if (inside(dir, path)) return true
    for (const folder of workspaceFolders) if (inside(folder, path)) candidates.push(relative(folder, path).split(sep).join("/"))
  } else {
    for (const folder of workspaceFolders) for (const dir of protectedDirs) if (inside(dir, join(folder, path))) return true
  }
  return candidates.some((candidate) => {
    const segments = candidate.split("/").filter((s) => s !== "" && s !== ".")
    const lower = segments.map((s) => s.toLowerCase())
    if (PROTECTED_NAMES.has(lower[lower.length - 1] ?? "")) return true
    return lower.slice(0, -1).some((segment) => PROTECTED_DIRS.has(segment)) || PROTECTED_DIRS.has(lower[lower.length - 1] ?? "")
  })
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path)
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))
}
