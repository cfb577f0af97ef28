import { stat } from "node:fs/promises"
import { type Confine, ConfinedReadError, readRegularFile } from "../config/regular-file"
import { extname } from "node:path"
import { formatBytes } from "./files"

/** Images read_file returns as image blocks, by extension. */
export const IMAGE_TYPES = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
} as const

export type ImageMediaType = (typeof IMAGE_TYPES)[keyof typeof IMAGE_TYPES]

/** The media types the model takes as image blocks (attachments, MCP results, screenshots, read_file). */
export const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set<string>(Object.values(IMAGE_TYPES))

/** The Messages API refuses larger images. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024

export function imageMediaType(absPath: string): ImageMediaType | undefined {
  return IMAGE_TYPES[extname(absPath).toLowerCase() as keyof typeof IMAGE_TYPES]
}

export type ImageRead = { ok: true; mediaType: ImageMediaType; base64: string; bytes: number } | { ok: false; message: string }

/** Reads an image for the model, refusing files over MAX_IMAGE_BYTES. */
export async function readImage(absPath: string, shown: string, mediaType: ImageMediaType, confine?: Confine): Promise<ImageRead> {
  const info = await stat(absPath)
  if (info.size > MAX_IMAGE_BYTES) {
    return {
      ok: false,
      message: `Image ${shown} is ${formatBytes(info.size)}; images are sent to the model only up to ${formatBytes(MAX_IMAGE_BYTES)}. Ask the user to describe it or provide a smaller version.`,
    }
  }
  const bytes = await readRegularFile(absPath, confine).catch((error: unknown) =>
    error instanceof ConfinedReadError ? error : Promise.reject(error),
  )
  if (bytes instanceof ConfinedReadError) return { ok: false, message: bytes.message }
  return { ok: true, mediaType, base64: bytes.toString("base64"), bytes: bytes.length }
}
