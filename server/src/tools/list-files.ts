import { z } from "zod"
import { defineTool, errorResult, textResult } from "./tool"
import { guardPath } from "../workspace/guard"
import { statOrProblem } from "../workspace/files"
import { listDirectory } from "../workspace/listing"
import { displayPath } from "../workspace/sandbox"

const params = z.object({
  path: z.string().describe("Directory to list ('.' for the root)"),
  recursive: z.boolean().optional().describe("List the whole tree below the directory (default false: its direct entries only)"),
})

const LOCK = "🔒"

const description = `List the files and folders in a directory (folders end with "/"). \
A recursive listing is breadth-first, skips what .gitignore ignores and does not descend into \
node_modules, dist and hidden folders (list them directly to see inside). Entries marked ${LOCK} are blocked by .rooignore. \
The listing is capped (agent.files.listLimit).`

export const listFiles = defineTool({
  name: "list_files",
  group: "read",
  params,
  description,
  available: () => true,
  async prepare({ path, recursive = false }, ctx) {
    const guarded = guardPath(ctx, path, "read")
    if (!guarded.ok) return { result: errorResult(guarded.message) }
    const shown = guarded.root ? displayPath(ctx.workspaceFolders, guarded.absPath) : guarded.absPath
    const info = await statOrProblem(guarded.absPath, shown)
    if ("kind" in info && info.kind !== "directory") {
      return {
        result: errorResult(info.kind === "missing" ? `Directory not found: ${shown}. List its parent to see what exists.` : info.message),
      }
    }
    if (!("kind" in info)) return { result: errorResult(`${shown} is a file, not a directory. Use read_file to read it.`) }

    const limit = ctx.settings.files.listLimit
    const listing = await listDirectory(guarded.absPath, { recursive, limit, workspaceFolders: ctx.workspaceFolders })
    const show = (abs: string) => (guarded.root ? displayPath(ctx.workspaceFolders, abs) : abs)
    const lines = listing.entries
      .map((e) => {
        const name = `${show(e.absPath)}${e.isDirectory ? "/" : ""}`
        return { name, line: `${e.rooIgnored ? `${LOCK} ` : ""}${name}${e.notDescended ? " (not listed inside)" : ""}` }
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((e) => e.line)
    const notes: string[] = []
    if (lines.length === 0) notes.push(`${shown} is empty (or everything in it is ignored by .gitignore).`)
    if (listing.scanStopped) {
      notes.push(
        `(Listing stopped after looking at ${listing.scanStopped} entries, most of them ignored by .gitignore. List a subfolder, or use search_files, to see the rest.)`,
      )
    } else if (listing.truncated) {
      notes.push(`(Listing cut at ${limit} entries, agent.files.listLimit. List a subfolder, or use search_files, to see the rest.)`)
    }
    if (listing.entries.some((e) => e.rooIgnored)) notes.push(`${LOCK} = blocked by .rooignore: it cannot be read or edited.`)
    const text = [...lines, ...(notes.length && lines.length ? [""] : []), ...notes].join("\n")
    const summary = `Listed ${lines.length} entries in ${shown}${listing.truncated ? " (cut)" : ""}`
    const result = textResult(text, summary)
    return {
      preview: {
        subject: guarded.outsideWorkspace ? { kind: "read", paths: [shown], outsideWorkspace: true } : { kind: "read", paths: [shown] },
        title: `List ${shown}${recursive ? " (recursive)" : ""}`,
        detail: summary,
      },
      run: async () => result,
    }
  },
})
