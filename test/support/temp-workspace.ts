import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs"

export interface TempWorkspace {
  /** Absolute real path (symlinks resolved, so it compares equal to what the server sees). */
  root: string
  path(relative: string): string
  cleanup(): Promise<void>
}

/** Makes a real folder with these files (relative path → content), in `parent` (default: the temp folder). */
export async function tempWorkspace(files: Record<string, string | Buffer> = {}, parent = tmpdir()): Promise<TempWorkspace> {
  const root = realpathSync(await mkdtemp(join(parent, "agent-lsp-ws-")))
  for (const [relative, content] of Object.entries(files)) {
    const target = join(root, relative)
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, content)
  }
  return {
    root,
    path: (relative) => join(root, relative),
    // Retries: a sandboxed command's placeholders (server/src/sandbox/placeholders.ts) and a language server
    // may still be removing or writing files here for a moment after a test ends (ENOTEMPTY otherwise).
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  }
}

/** Every regular file under `dir`, recursively (none when it does not exist): for "no key in any file" checks. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
}

/**
 * The text (latin1: every byte kept) of every regular file under `dir`, by path. A file removed between the
 * listing and its read (git's index.lock, a temporary file a running server renames) is left out.
 */
export function textsUnder(dir: string): Map<string, string> {
  const texts = new Map<string, string>()
  for (const file of filesUnder(dir)) {
    try {
      texts.set(file, readFileSync(file, "latin1"))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
    }
  }
  return texts
}
