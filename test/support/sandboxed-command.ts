import { readFileSync } from "node:fs"
import type { SandboxPolicy } from "../../server/src/sandbox"
import { placeholdersSettled } from "../../server/src/sandbox/placeholders"
import { startCommand } from "../../server/src/terminal/runner"
import { commandEnv } from "../../server/src/terminal/env"

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
