import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll } from "vitest"
import type { SandboxPolicy } from "../../server/src/sandbox"
import { placeholdersSettled } from "../../server/src/sandbox/placeholders"
import { startCommand } from "../../server/src/terminal/runner"
import { setArtifactDir } from "../../server/src/terminal/artifacts"
import { commandEnv } from "../../server/src/terminal/env"
import { type TempWorkspace, tempWorkspace } from "./temp-workspace"

/**
 * Starts `command` with real bash in the real OS sandbox of `policy` (in its first workspace folder), with
 * HOME set to `home`. `done` resolves with the exit code and the whole output once the command has ended and
 * its placeholders are removed (the server removes them just after a command, off its path), so a test's
 * checks see the host as it is after the command. Needs setArtifactDir() (terminal/artifacts) first.
 */
export function startSandboxed(
  command: string,
  policy: SandboxPolicy & { home: string },
): { done: Promise<{ code: number | null; output: string }> } {
  const running = startCommand({
    command,
    cwd: policy.workspaceFolders[0]!,
    shell: ["/bin/bash", "--noprofile", "--norc", "-c"],
    hardTimeoutSeconds: 30,
    maxLines: 1000,
    maxBytes: 100_000,
    env: { ...commandEnv(), HOME: policy.home },
    sandbox: { kind: "sandboxed", policy },
  })
  const done = running.done.then(async (outcome) => {
    await placeholdersSettled()
    return { code: outcome.exitCode, output: readFileSync(running.artifactPath, "utf8") }
  })
  return { done }
}

/**
 * A home for sandboxed commands with these files, outside /tmp: the sandbox shows each command a private
 * /tmp, which would hide a home under the host's /tmp whole, and a test that the credential masks hide
 * `~/.ssh` would then pass without them.
 */
export function tempHome(files: Record<string, string> = {}): Promise<TempWorkspace> {
  return tempWorkspace(files, "/var/tmp")
}

/**
 * The folders a file of sandbox tests shares, made before its first test and removed after its last: one for
 * the commands' output (setArtifactDir), a HOME for the commands, and the workspaces its tests ask for.
 */
export function sandboxTestFolders(): {
  artifacts(): TempWorkspace
  home(): TempWorkspace
  workspace(files?: Record<string, string>): Promise<TempWorkspace>
  /** A workspace that is a git repository (git init), with `src/a.txt`. */
  gitWorkspace(): Promise<TempWorkspace>
} {
  let artifacts: TempWorkspace | undefined
  let home: TempWorkspace | undefined
  const workspaces: TempWorkspace[] = []
  beforeAll(async () => {
    artifacts = await tempWorkspace()
    home = await tempHome()
    setArtifactDir(artifacts.root)
  })
  afterAll(async () => {
    setArtifactDir(undefined)
    for (const dir of [artifacts, home, ...workspaces]) await dir?.cleanup()
  })
  const workspace = async (files: Record<string, string> = {}) => {
    const ws = await tempWorkspace(files)
    workspaces.push(ws)
    return ws
  }
  return {
    artifacts: () => artifacts!,
    home: () => home!,
    workspace,
    async gitWorkspace() {
      const ws = await workspace({ "src/a.txt": "hello\n" })
      execFileSync("git", ["init", "-q"], { cwd: ws.root })
      return ws
    },
  }
}
