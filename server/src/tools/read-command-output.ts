import { existsSync } from "node:fs"
import { z } from "zod"
import { defineTool, errorResult, textResult, type ToolResult } from "./tool"
import { artifactPath } from "../terminal/artifacts"
import { readArtifactWindow, searchArtifact } from "../terminal/artifact-read"
import { describeOutcome, type BackgroundCommands } from "../terminal/background"
import { formatBytes } from "../workspace/files"

const DEFAULT_LIMIT_BYTES = 32 * 1024
const MAX_SEARCH_LINES = 300
const MAX_LIMIT_BYTES = 256 * 1024

const params = z.object({
  artifact_id: z.string().min(1).describe("The artifact id execute_command gave"),
  search: z.string().optional().describe("Regex (case-insensitive, like grep) to return only the matching lines, with line numbers"),
  offset: z.number().int().min(0).optional().describe("Byte offset to start reading from (default 0), for paging"),
  limit: z.number().int().positive().optional().describe(`Maximum bytes to return (default ${DEFAULT_LIMIT_BYTES})`),
})

const description = `Read the whole output of an execute_command whose output was cut, or that still runs in the background. \
Without search: a window from a byte offset (page with offset). With search: the lines matching a case-insensitive regex.`

export const readCommandOutput = defineTool({
  name: "read_command_output",
  group: "command",
  params,
  description,
  available: () => true,
  async prepare(input, ctx) {
    const path = artifactPath(input.artifact_id)
    if (!path || !existsSync(path)) {
      return {
        result: errorResult(
          `No command output with artifact_id "${input.artifact_id}". Use the exact id that execute_command reported (like "cmd-1706119234567-a1b2c3.txt").`,
        ),
      }
    }
    const result = await read(path, input, ctx.background)
    return {
      preview: { subject: { kind: "none" }, title: `Read command output ${input.artifact_id}`, detail: result.summary },
      run: async () => result,
    }
  },
})

async function read(path: string, input: z.infer<typeof params>, background: BackgroundCommands): Promise<ToolResult> {
  const state = background.state(input.artifact_id)
  const status =
    state === undefined ? "" : state === "running" ? " The command is still running." : ` The command has ended: ${describeOutcome(state)}.`
  if (input.search !== undefined) {
    const found = await searchArtifact(path, input.search, MAX_SEARCH_LINES)
    if ("error" in found) return errorResult(found.error)
    if (found.totalMatches === 0) return textResult(`No lines match /${input.search}/ in ${input.artifact_id}.${status}`)
    const more = found.more
      ? `\n(Showing ${found.lines.length} of ${found.totalMatches} matching lines; make the pattern more specific.)`
      : ""
    const text = `${found.totalMatches} lines match /${input.search}/ in ${input.artifact_id}.${status}\n\n${found.lines.map((l) => `${l.line} | ${l.text}`).join("\n")}${more}`
    return textResult(text, `${found.totalMatches} matching lines in ${input.artifact_id}`)
  }
  // A model's limit is taken up to MAX_LIMIT_BYTES: `limit: 1e12` on a big output would hold it all in memory and in the conversation.
  const limit = Math.min(input.limit ?? DEFAULT_LIMIT_BYTES, MAX_LIMIT_BYTES)
  const clamped = limit < (input.limit ?? 0) ? ` (limit is at most ${formatBytes(MAX_LIMIT_BYTES)} per call)` : ""
  const window = await readArtifactWindow(path, input.offset ?? 0, limit)
  if (window.size === 0) return textResult(`The output ${input.artifact_id} is empty.${status}`)
  if (window.start >= window.size) {
    return errorResult(
      `Offset ${input.offset} is past the end of ${input.artifact_id}, which has ${window.size} bytes. Use an offset below ${window.size}.${status}`,
    )
  }
  const rest = window.next < window.size ? ` To read on, call read_command_output with offset ${window.next}.` : ""
  const header = `Bytes ${window.start}-${window.next} of ${window.size} (${formatBytes(window.size)}) of ${input.artifact_id}${clamped}.${status}${rest}`
  return textResult(`${header}\n\n${window.text}`, `Read ${input.artifact_id} bytes ${window.start}-${window.next}`)
}
