import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * Images in task files are kept beside the task, not in its lines: a message record names the file
 * (`<taskId>.files/<hash>.<ext>`) and reading the task back puts the base64 in again. A screenshot or an
 * attached photo would otherwise add megabytes of base64 to a file that is scanned for summaries and
 * read whole on load. Small images stay inline.
 */

/** Base64 up to this length stays in the line. */
const INLINE_MAX_CHARS = 4096
const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" }
/** What a stored reference may name: nothing with a path in it, whatever a tampered file says. */
const STORED_NAME = /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/

interface ImageLike {
  type: "image"
  mediaType: string
  base64?: string
  stored?: string
}

function isImage(value: unknown): value is ImageLike {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "image"
}

/** JSON.stringify replacer for a task line: large images go to `dir`, and the line keeps their file name. */
export function storingImages(dir: string): (key: string, value: unknown) => unknown {
  return (_key, value) => {
    if (!isImage(value) || typeof value.base64 !== "string" || value.base64.length <= INLINE_MAX_CHARS) return value
    const name = `${createHash("sha256").update(value.base64).digest("hex").slice(0, 32)}.${EXTENSIONS[value.mediaType] ?? "png"}`
    const path = join(dir, name)
    if (!existsSync(path)) {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      writeFileSync(path, Buffer.from(value.base64, "base64"), { mode: 0o600 })
    }
    return { type: "image", mediaType: value.mediaType, stored: name }
  }
}

/** JSON.parse reviver for a task line: a stored image's base64 comes back from `dir`; a lost one becomes a note. */
export function loadingImages(dir: string): (key: string, value: unknown) => unknown {
  return (_key, value) => {
    if (!isImage(value) || typeof value.stored !== "string") return value
    try {
      if (!STORED_NAME.test(value.stored)) throw new Error("bad name")
      return { type: "image", mediaType: value.mediaType, base64: readFileSync(join(dir, value.stored)).toString("base64") }
    } catch {
      return { type: "text", text: "[An image was attached here; its stored copy is gone.]" }
    }
  }
}
