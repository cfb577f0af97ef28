import { appendFile, mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { dirname } from "node:path"
import type { TranscriptIo } from "./transcript-io"

/**
 * The real disk side of TranscriptIo: private files (0600, like task files) written through a temp file
 * and a rename, so an editor that reloads never reads half a transcript.
 */
export function nodeTranscriptFiles(): Pick<TranscriptIo, "writeFile" | "appendFile" | "readFile"> {
  return {
    async writeFile(path, text) {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 })
      const temp = `${path}.${process.pid}.tmp`
      await writeFile(temp, text, { mode: 0o600 })
      await rename(temp, path)
    },
    async appendFile(path, text) {
      // A reader may see the text grow, never half of what was there before.
      await appendFile(path, text, { mode: 0o600 })
    },
    async readFile(path) {
      try {
        return await readFile(path, "utf8")
      } catch {
        return undefined
      }
    },
  }
}
