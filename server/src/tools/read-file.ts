import { z } from "zod"
import { defineTool, errorResult, textResult, type PrepareOutcome, type ToolResult } from "./tool"
import type { ToolContext } from "./context"
import { guardPath } from "../workspace/guard"
import { ConfinedReadError } from "../config/regular-file"
import { binaryProblem, editorDocument, readConfinementOf, readTextFile, statOrProblem } from "../workspace/files"
import { imageMediaType, readImage } from "../workspace/images"
import { numberLines, readLineSlice, sliceText, splitLines, type LineSlice } from "../workspace/line-slice"
import { indentationBlock } from "../workspace/indentation-block"
import { displayPath } from "../workspace/sandbox"

const DEFAULT_LIMIT = 2000

const params = z.object({
  path: z.string().describe("File to read"),
  mode: z
    .enum(["slice", "indentation"])
    .optional()
    .describe("'slice' (default) or 'indentation': the code block (e.g. function) around indentation.anchor_line"),
  offset: z.number().int().min(1).optional().describe("1-based first line (default 1), for paging"),
  limit: z.number().int().min(1).optional().describe(`Most lines to return (default ${DEFAULT_LIMIT})`),
  indentation: z
    .object({
      anchor_line: z.number().int().min(1).optional().describe("Line to build the block around (default: offset)"),
      max_levels: z.number().int().min(0).optional().describe("Enclosing levels to include; 0 = the whole top-level block (default)"),
      include_siblings: z.boolean().optional().describe("Include sibling blocks (default false)"),
      include_header: z.boolean().optional().describe("Include leading comments and enclosing headers (default true)"),
      max_lines: z.number().int().min(1).optional().describe("Line cap (default: limit)"),
    })
    .optional()
    .describe("Options for mode 'indentation'"),
})

type Params = z.infer<typeof params>

// The modes and paging are said once, in the schema's property descriptions.
const description = `Read a file and return its lines numbered as "N | text". \
Lines longer than 2000 characters are cut. Images (png, jpg, gif, webp, up to 5 MB) are returned as images. \
Reads the editor's open buffer when the file is open, else the disk. Use list_files for directories.`

export const readFile = defineTool({
  name: "read_file",
  group: "read",
  params,
  description,
  available: () => true,
  async prepare(input, ctx) {
    const guarded = guardPath(ctx, input.path, "read")
    if (!guarded.ok) return { result: errorResult(guarded.message) }
    const shown = guarded.root ? displayPath(ctx.workspaceFolders, guarded.absPath) : guarded.absPath
    const result = await read(input, guarded.absPath, shown, ctx)
    return readOutcome(result, shown, guarded.outsideWorkspace, shown)
  },
})

function readOutcome(result: ToolResult, shown: string, outsideWorkspace: boolean, path: string): PrepareOutcome {
  if (result.isError) return { result }
  return {
    preview: {
      subject: outsideWorkspace ? { kind: "read", paths: [path], outsideWorkspace: true } : { kind: "read", paths: [path] },
      title: `Read ${shown}`,
      detail: result.summary,
    },
    run: async () => result,
  }
}

async function read(input: Params, absPath: string, shown: string, ctx: ToolContext): Promise<ToolResult> {
  // Images are read from the disk; text comes from the editor first (open buffer, or ACP fs/read_text_file).
  const document = imageMediaType(absPath) ? undefined : await editorDocument(ctx.editor, absPath)
  if (!document) {
    const info = await statOrProblem(absPath, shown)
    if ("kind" in info) return errorResult(info.message)
    const mediaType = imageMediaType(absPath)
    if (mediaType) {
      const image = await readImage(absPath, shown, mediaType, readConfinementOf(ctx, shown))
      if (!image.ok) return errorResult(image.message)
      return {
        isError: false,
        content: [
          { type: "text", text: `Image ${shown} (${mediaType}, ${image.bytes} bytes):` },
          { type: "image", mediaType: image.mediaType, base64: image.base64 },
        ],
        summary: `Read image ${shown}`,
      }
    }
  }
  const limit = input.limit ?? DEFAULT_LIMIT
  const offset = input.offset ?? 1
  if (input.mode === "indentation") return readIndentation(input, absPath, shown, ctx, offset, limit)
  let slice: LineSlice
  try {
    slice = document ? sliceText(document.text, offset, limit) : await readLineSlice(absPath, offset, limit, readConfinementOf(ctx, shown))
  } catch (error) {
    if (error instanceof ConfinedReadError) return errorResult(error.message)
    throw error
  }
  if (slice.binary) return errorResult(binaryProblem(shown).message)
  return formatSlice(slice, offset, limit, shown, ctx.settings.files.maxReadBytes, document?.dirtyByUser ?? false)
}

function formatSlice(slice: LineSlice, offset: number, limit: number, shown: string, maxBytes: number, unsaved: boolean): ToolResult {
  if (slice.totalLines === 0) return textResult(`${shown} is empty (0 lines).`, `${shown}: empty`)
  if (offset > slice.totalLines) {
    return errorResult(
      `Offset ${offset} is past the end of ${shown}, which has ${slice.totalLines} lines. Use an offset from 1 to ${slice.totalLines}.`,
    )
  }
  const numbered = numberLines(slice.lines, offset)
  // Keep the answer within agent.files.maxReadBytes even when many lines are long.
  let shownCount = numbered.length
  // A UTF-16 unit is at most 3 UTF-8 bytes: count exactly only when the answer might be over the cap.
  if (numbered.reduce((n, line) => n + line.length + 1, 0) * 3 > maxBytes) {
    let bytes = 0
    shownCount = 0
    for (const line of numbered) {
      bytes += Buffer.byteLength(line) + 1
      if (bytes > maxBytes && shownCount > 0) break
      shownCount++
    }
  }
  const last = offset + shownCount - 1
  const notes: string[] = []
  if (unsaved) notes.push(`${shown} has unsaved changes in the editor; this is the editor's buffer, not the disk.`)
  if (last < slice.totalLines || offset > 1) {
    const why = shownCount < Math.min(limit, slice.lines.length) ? ` (cut at ${maxBytes} bytes)` : ""
    const next = last < slice.totalLines ? ` To read more, call read_file with offset ${last + 1}.` : ""
    notes.push(`Showing lines ${offset}-${last} of ${slice.totalLines} in ${shown}${why}.${next}`)
  }
  const header = notes.length ? `${notes.join("\n")}\n` : ""
  return textResult(`${header}${numbered.slice(0, shownCount).join("\n")}`, `Read ${shown} lines ${offset}-${last} of ${slice.totalLines}`)
}

async function readIndentation(
  input: Params,
  absPath: string,
  shown: string,
  ctx: ToolContext,
  offset: number,
  limit: number,
): Promise<ToolResult> {
  const file = await readTextFile(ctx, absPath, shown)
  if (file.kind !== "text") {
    const hint = file.kind === "tooLarge" ? " Use mode 'slice' with offset/limit for large files." : ""
    return errorResult(file.message + hint)
  }
  const lines = splitLines(file.text)
  if (lines.length === 0) return textResult(`${shown} is empty (0 lines).`, `${shown}: empty`)
  const options = input.indentation ?? {}
  const anchor = options.anchor_line ?? offset
  if (anchor > lines.length) {
    return errorResult(
      `anchor_line ${anchor} is past the end of ${shown}, which has ${lines.length} lines. Use a line from 1 to ${lines.length}.`,
    )
  }
  const block = indentationBlock(lines, {
    anchorLine: anchor,
    maxLevels: options.max_levels ?? 0,
    includeSiblings: options.include_siblings ?? false,
    includeHeader: options.include_header ?? true,
    maxLines: options.max_lines ?? limit,
  })
  const parts: string[] = []
  for (const [i, range] of block.ranges.entries()) {
    if (i > 0 && range.start > block.ranges[i - 1]!.end + 1) parts.push("...")
    parts.push(...numberLines(lines.slice(range.start - 1, range.end), range.start))
  }
  const rangeText = block.ranges.map((r) => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`)).join(", ")
  const cut = block.truncated ? ` The block was cut to max_lines; read the rest with mode 'slice'.` : ""
  parts.push("", `Included ranges of ${shown} (${lines.length} lines): ${rangeText}.${cut}`)
  return textResult(parts.join("\n"), `Read ${shown} block around line ${anchor} (${rangeText})`)
}
