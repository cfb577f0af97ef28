import { createWriteStream, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomBytes } from "node:crypto"
import { Writable } from "node:stream"
import { secretValues } from "../config/secrets"

/**
 * Full command output, kept on disk (never whole in memory) for read_command_output. One file per command,
 * named by its artifact id, in a private folder made with mkdtemp (mode 0700, an unpredictable name, so
 * another local user can neither pre-create it as a symlink nor read it), one per server process and
 * removed when the process exits. Secret values the server holds are redacted on the way in.
 */

const ARTIFACT_ID = /^cmd-[A-Za-z0-9-]+\.txt$/
const DIR_PREFIX = "agent-lsp-output-"

/** Folders of processes that died without cleaning up are deleted after this long. */
const KEEP_MS = 7 * 24 * 3600 * 1000

let dirOverride: string | undefined
let processDir: string | undefined

/** Tests point the store at their own folder. */
export function setArtifactDir(dir: string | undefined): void {
  dirOverride = dir
}

export function artifactDir(): string {
  if (dirOverride) {
    mkdirSync(dirOverride, { recursive: true, mode: 0o700 })
    return dirOverride
  }
  if (!processDir) {
    pruneStaleDirs(tmpdir(), Date.now() - KEEP_MS)
    const dir = mkdtempSync(join(tmpdir(), DIR_PREFIX))
    processDir = dir
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }))
  }
  return processDir
}

/**
 * Deletes this user's artifact folders in `parent` last changed before `before` (ms since the epoch):
 * leftovers of crashed servers. Symlinks and other users' folders are left alone.
 */
export function pruneStaleDirs(parent: string, before: number): void {
  let names: string[]
  try {
    names = readdirSync(parent)
  } catch {
    return
  }
  for (const name of names) {
    if (!name.startsWith(DIR_PREFIX)) continue
    try {
      const info = lstatSync(join(parent, name))
      if (info.isDirectory() && info.uid === process.getuid?.() && info.mtimeMs < before)
        rmSync(join(parent, name), { recursive: true, force: true })
    } catch {
      // Gone already, or not ours to delete.
    }
  }
}

export function newArtifact(): { id: string; path: string; stream: Writable } {
  const id = `cmd-${Date.now()}-${randomBytes(3).toString("hex")}.txt`
  const path = join(artifactDir(), id)
  return { id, path, stream: redactingFile(path) }
}

/** The file of an artifact id, or undefined when the id is malformed (ids never contain a path). */
export function artifactPath(id: string): string | undefined {
  return ARTIFACT_ID.test(id) ? join(artifactDir(), id) : undefined
}

/**
 * A file stream that replaces secret values with `[NAME redacted]`. The last (longest secret − 1) bytes are
 * held back between chunks so a secret split across two chunks is still caught. Bytes go through latin1,
 * which maps each byte to one char and back, so binary output is kept as is.
 */
function redactingFile(path: string): Writable {
  const file = createWriteStream(path, { mode: 0o600, flags: "wx" })
  const secrets = secretValues().filter((s) => s.value.length >= 8)
  const keep = Math.max(0, ...secrets.map((s) => s.value.length - 1))
  let carry = ""
  const redact = (text: string) => secrets.reduce((acc, s) => acc.split(s.value).join(`[${s.name} redacted]`), text)
  return new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      const text = redact(carry + chunk.toString("latin1"))
      carry = keep > 0 ? text.slice(-keep) : ""
      const out = keep > 0 ? text.slice(0, text.length - carry.length) : text
      if (file.write(Buffer.from(out, "latin1"))) callback()
      else file.once("drain", () => callback())
    },
    final(callback) {
      file.end(Buffer.from(redact(carry), "latin1"), () => callback())
    },
    destroy(error, callback) {
      file.destroy()
      callback(error)
    },
  })
}
