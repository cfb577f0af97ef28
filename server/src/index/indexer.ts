import { readConfinement } from "../workspace/guard"
import { lstat } from "node:fs/promises"
import { basename, dirname, join, relative, sep } from "node:path"
import { listDirectory, SKIPPED_FOLDERS } from "../workspace/listing"
import { chunkFile } from "./chunker"
import { readIndexableText, scanFolder, statIndexable, type ScannedFile } from "./file-scan"
import type { LexicalIndex } from "./lexical-index"
import type { SemanticIndex } from "./semantic-index"

/**
 * The operations that change an index: reconcile it with a scan of the folder (start-up, rebuild, branch
 * switch), and apply a batch of changed paths (file watcher, didSave, didChangeWatchedFiles). Only files
 * whose size or mtime changed are read and chunked again. Between files the event loop gets a turn, so
 * indexing never holds up the server's requests.
 */

export interface IndexerTarget {
  root: string
  lexical: LexicalIndex
  semantic?: SemanticIndex
  /** After each file: how many are done out of how many. */
  progress(done: number, total: number): void
  /** Folders to watch (a scan found them). */
  watch(folders: string[]): void
  /** A folder is gone or ignored now. */
  unwatch(folder: string): void
  cancelled(): boolean
}

/** Brings the index in line with the folder: new and changed files indexed, vanished ones removed. */
export async function reconcile(target: IndexerTarget): Promise<void> {
  const scan = await scanFolder(target.root)
  target.watch(scan.folders)
  const present = new Set(scan.files.map((f) => f.relPath))
  const gone = target.lexical.paths().filter((path) => !present.has(path))
  for (const path of gone) target.lexical.removeFile(path)
  target.semantic?.remove(gone)
  await indexFiles(target, scan.files)
}

/** Applies changes at these absolute paths (files or folders, present or gone). */
export async function applyChanges(target: IndexerTarget, absPaths: string[]): Promise<void> {
  const listings = new Map<string, Promise<Map<string, { isDirectory: boolean; rooIgnored: boolean }>>>()
  const toIndex: ScannedFile[] = []
  for (const absPath of new Set(absPaths)) {
    const rel = relative(target.root, absPath).split(sep).join("/")
    if (rel === "" || rel.startsWith("..") || !isScannable(rel)) continue
    const parent = dirname(absPath)
    if (!listings.has(parent)) listings.set(parent, listParent(target.root, parent))
    const entry = (await listings.get(parent)!).get(basename(absPath))
    const stat = entry && !entry.rooIgnored ? await lstat(absPath).catch(() => undefined) : undefined
    if (!stat || stat.isSymbolicLink()) {
      removeUnder(target, rel)
      target.unwatch(absPath)
    } else if (stat.isDirectory()) {
      if (!isScannable(`${rel}/`)) continue
      const scan = await scanFolder(target.root, absPath)
      target.watch(scan.folders)
      toIndex.push(...scan.files)
    } else {
      const file = await statIndexable(target.root, absPath)
      if (file) toIndex.push(file)
      else removeUnder(target, rel)
    }
  }
  await indexFiles(target, toIndex)
}

/** The check of the file actually opened: inside the folder, not .rooignore'd (workspace/guard.ts). */
function confinement(root: string, shown: string) {
  return readConfinement({ workspaceFolders: [root], settings: { files: { readOutsideWorkspace: false } } }, shown)
}

async function indexFiles(target: IndexerTarget, files: ScannedFile[]): Promise<void> {
  let done = 0
  target.progress(0, files.length)
  for (const file of files) {
    if (target.cancelled()) return
    const known = target.lexical.file(file.relPath)
    const fingerprint = `${file.mtimeMs}:${file.size}`
    const changed = !known || known.mtimeMs !== file.mtimeMs || known.size !== file.size
    if (changed || target.semantic?.needs(file.relPath, fingerprint)) {
      const text = await readIndexableText(file.absPath, confinement(target.root, file.relPath))
      if (text === undefined) {
        removeUnder(target, file.relPath)
      } else {
        const chunks = await chunkFile(file.relPath, text)
        if (changed) target.lexical.setFile(file.relPath, chunks, file)
        target.semantic?.enqueue(file.relPath, fingerprint, chunks)
      }
      // A turn for the server's requests after each file that cost work.
      await new Promise((resolve) => setImmediate(resolve))
    }
    target.progress(++done, files.length)
  }
}

/** Removes a file, or every indexed file under a folder. */
function removeUnder(target: IndexerTarget, rel: string): void {
  const gone = target.lexical.paths().filter((p) => p === rel || p.startsWith(`${rel}/`))
  for (const path of gone) target.lexical.removeFile(path)
  target.semantic?.remove(gone)
}

/**
 * Paths in folders the scan never enters (dependencies, build output, hidden) are not indexed; a folder
 * itself is passed with a trailing `/`.
 */
function isScannable(rel: string): boolean {
  const folders = rel.split("/").slice(0, -1)
  return !folders.some((name) => SKIPPED_FOLDERS.has(name) || name.startsWith("."))
}

/** The parent folder's entries as list_files sees them (`.gitignore`d ones absent). */
async function listParent(root: string, dir: string) {
  const listing = await listDirectory(dir, { recursive: false, limit: 1_000_000, workspaceFolders: [root] }).catch(() => ({ entries: [] }))
  return new Map(listing.entries.map((e) => [basename(e.absPath), { isDirectory: e.isDirectory, rooIgnored: e.rooIgnored }]))
}

/** True when a batch of changed paths should rather trigger a full re-scan. */
export function needsRescan(absPaths: string[]): boolean {
  return (
    absPaths.length > 500 || absPaths.some((p) => [".gitignore", ".rooignore"].includes(basename(p)) || p.endsWith(join(".git", "HEAD")))
  )
}
