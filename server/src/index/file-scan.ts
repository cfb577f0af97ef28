import { lstat } from "node:fs/promises"
import { openRegularFile, type Confine } from "../config/regular-file"
import { basename, extname, relative, sep } from "node:path"
import { BINARY_SNIFF_BYTES, looksBinary } from "../workspace/files"
import { isIgnored } from "../workspace/ignore-rules"
import { listDirectory } from "../workspace/listing"
import { isInside, realPathOf } from "../workspace/sandbox"

/**
 * Which files of a workspace folder the index holds: what a recursive list_files would show (`.gitignore`
 * honoured, dependency/build/hidden folders skipped), minus `.rooignore`d paths, symlinks, binaries,
 * lock files and files too large to be source code.
 */

/** Files above this size are data or generated code, not something to search as code. */
export const MAX_INDEXED_FILE_BYTES = 1024 * 1024
/** A safety net for enormous folders: the index holds at most this many files. */
export const MAX_INDEXED_FILES = 50_000

const SKIPPED_EXTENSIONS = new Set(
  (
    ".png .jpg .jpeg .gif .webp .ico .bmp .tiff .pdf .zip .gz .tgz .bz2 .xz .7z .tar .jar .war .class .so .dll " +
    ".dylib .exe .bin .o .a .wasm .woff .woff2 .ttf .otf .eot .mp3 .mp4 .wav .ogg .mov .avi .sqlite .db .lock .map " +
    ".pyc .lance .arrow .parquet .svg"
  ).split(" "),
)
const SKIPPED_NAMES = new Set(["package-lock.json", "yarn.lock", "pnpm-lock.yaml", "Cargo.lock", "poetry.lock", "composer.lock", "go.sum"])

/** A file the index may hold, with what tells whether it changed. */
export interface ScannedFile {
  absPath: string
  /** Relative to the workspace folder, `/`-separated. */
  relPath: string
  mtimeMs: number
  size: number
}

export interface ScanResult {
  files: ScannedFile[]
  /** Folders the scan descended into (the root first): the ones to watch. */
  folders: string[]
}

/** Cheap checks by name, before any IO. */
export function isIndexableName(path: string): boolean {
  const name = basename(path)
  if (SKIPPED_NAMES.has(name) || name.endsWith(".min.js") || name.endsWith(".min.css")) return false
  return !SKIPPED_EXTENSIONS.has(extname(name).toLowerCase())
}

/** Every indexable file under `dir` (inside workspace folder `root`). */
export async function scanFolder(root: string, dir: string = root): Promise<ScanResult> {
  const listing = await listDirectory(dir, { recursive: true, limit: MAX_INDEXED_FILES * 4, workspaceFolders: [root] })
  const files: ScannedFile[] = []
  const folders = [dir]
  for (const entry of listing.entries) {
    if (entry.rooIgnored) continue
    if (entry.isDirectory) {
      if (!entry.notDescended) folders.push(entry.absPath)
      continue
    }
    if (files.length >= MAX_INDEXED_FILES || !isIndexableName(entry.absPath)) continue
    const file = await statIndexable(root, entry.absPath)
    if (file) files.push(file)
  }
  return { files, folders }
}

/**
 * The file as the index would hold it, or undefined when it must not be indexed (gone, not a regular
 * file, a symlink, ignored, too large). `.gitignore` is the caller's job (the listing applies it).
 */
export async function statIndexable(root: string, absPath: string): Promise<ScannedFile | undefined> {
  if (!isInside(root, absPath) || isIgnored([root], absPath) || !isIndexableName(absPath)) return undefined
  const stat = await lstat(absPath).catch(() => undefined)
  if (!stat?.isFile() || stat.size > MAX_INDEXED_FILE_BYTES) return undefined
  // A real folder reached through a symlinked parent would escape the workspace; the listing never follows
  // links, but a path from a watcher event might.
  if (!isInside(realPathOf(root), realPathOf(absPath))) return undefined
  return { absPath, relPath: relative(root, absPath).split(sep).join("/"), mtimeMs: stat.mtimeMs, size: stat.size }
}

/** The file's text, or undefined for a binary file (as read_file judges one) or one that vanished. */
export async function readIndexableText(absPath: string, confine?: Confine): Promise<string | undefined> {
  let handle
  try {
    // Checked again on the open descriptor: the lstat above cannot stop a swap for a FIFO, whose blocking
    // open would hold a thread of libuv's pool (and every later file call of the server) forever, nor a swap
    // for a link out of the workspace or to a .rooignore'd file (`confine`), whose text would land in the index.
    handle = await openRegularFile(absPath, confine)
    const buffer = await handle.readFile()
    if (looksBinary(buffer.subarray(0, BINARY_SNIFF_BYTES))) return undefined
    return buffer.toString("utf8")
  } catch {
    return undefined
  } finally {
    await handle?.close()
  }
}
