import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { nodeTranscriptFiles, type TranscriptIo, type TranscriptTextEdit } from "../../../../server/src/core/transcript/index"
import { endPosition, TranscriptDocument } from "../../../../server/src/core/transcript/transcript-document"

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function countingIo(failWrites = 0) {
  const files = nodeTranscriptFiles()
  const calls = { write: 0, append: 0, edits: [] as TranscriptTextEdit[] }
  let failures = failWrites
  const io: TranscriptIo = {
    writeFile: async (path, text) => {
      calls.write++
      if (failures-- > 0) throw new Error("disk full")
      await files.writeFile(path, text)
    },
    appendFile: async (path, text) => {
      calls.append++
      await files.appendFile!(path, text)
    },
    applyEdit: async (_uri, edits) => (calls.edits.push(...edits), true),
    showDocument: async () => true,
  }
  return { io, calls }
}

function docPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "agent-lsp-transcript-"))
  dirs.push(dir)
  return join(dir, "t.md")
}

describe("transcript document on disk", () => {
  it("writes the file once, then appends each batch, and edits at the right end position", async () => {
    const path = docPath()
    const { io, calls } = countingIo()
    const doc = new TranscriptDocument(path, "# Title\n", io, 10_000)
    await doc.show()
    for (let i = 0; i < 50; i++) {
      doc.append(i % 7 === 0 ? `line ${i}\nmore` : ` word${i}`)
      await doc.flush()
    }
    expect(calls.write).toBe(1)
    expect(calls.append).toBe(50)
    expect(readFileSync(path, "utf8")).toBe(doc.content)
    // Each edit starts where the text before it ended.
    let text = "# Title\n"
    for (const edit of calls.edits) {
      expect(edit.range.start).toEqual(endPosition(text))
      text += edit.newText
    }
  })

  it("rewrites the whole file after a failed write", async () => {
    const path = docPath()
    const { io, calls } = countingIo(1)
    const doc = new TranscriptDocument(path, "", io, 10_000)
    doc.append("first ")
    await doc.flush() // fails
    doc.append("second")
    await doc.flush()
    expect(calls.write).toBe(2)
    expect(calls.append).toBe(0)
    expect(readFileSync(path, "utf8")).toBe("first second")
  })
})
