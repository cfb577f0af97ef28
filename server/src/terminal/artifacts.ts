import { createWriteStream, mkdirSync, readdirSync, rmSync, statSync, type WriteStream } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomBytes } from "node:crypto"

/**
 * Full command output, kept on disk (never whole in memory) for read_command_output. One file per command,
 * named by its artifact id, in a per-user folder readable only by the user.
 */

const ARTIFACT_ID = /^cmd-[A-Za-z0-9-]+\.txt$/

/** Outputs older than this are deleted the first time a server process stores one. */
const KEEP_MS = 7 * 24 * 3600 * 1000

let dirOverride: string | undefined
let pruned = false

/** Tests point the store at their own folder. */
export function setArtifactDir(dir: string | undefined): void {
  dirOverride = dir
}

export function artifactDir(): string {
  const dir = dirOverride ?? join(tmpdir(), `agent-lsp-${process.getuid?.() ?? "user"}`, "command-output")
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (!pruned) {
    pruned = true
    pruneArtifacts(dir, Date.now() - KEEP_MS)
  }
  return dir
}

/** Deletes artifacts last written before `before` (ms since the epoch). */
export function pruneArtifacts(dir: string, before: number): void {
  for (const name of readdirSync(dir)) {
    if (!ARTIFACT_ID.test(name)) continue
    try {
      if (statSync(join(dir, name)).mtimeMs < before) rmSync(join(dir, name), { force: true })
    } catch {
      // Gone already, or not ours to delete.
    }
  }
}

export function newArtifact(): { id: string; path: string; stream: WriteStream } {
  const id = `cmd-${Date.now()}-${randomBytes(3).toString("hex")}.txt`
  const path = join(artifactDir(), id)
  return { id, path, stream: createWriteStream(path, { mode: 0o600 }) }
}

/** The file of an artifact id, or undefined when the id is malformed (ids never contain a path). */
export function artifactPath(id: string): string | undefined {
  return ARTIFACT_ID.test(id) ? join(artifactDir(), id) : undefined
}
