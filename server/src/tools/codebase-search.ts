import { z } from "zod"
import type { CodeSearchHit } from "../index/types"
import { statOrProblem } from "../workspace/files"
import { guardPath } from "../workspace/guard"
import { isIgnored } from "../workspace/ignore-rules"
import { containingRoot, displayPath } from "../workspace/sandbox"
import { defineTool, errorResult, textResult } from "./tool"

const params = z.object({
  query: z
    .string()
    .min(1)
    .describe("What you are looking for, in natural language or with the names you expect (e.g. 'where are API keys redacted from logs')"),
  path: z.string().optional().describe("Folder to search in (default: the whole workspace)"),
})

const description = `Find the code most relevant to a question, by meaning as well as by words, using the workspace's \
codebase index (kept current as files change). Use it first when exploring code you do not know yet, before \
search_files or read_file; reuse the user's own wording in the query. Results, best first, give each chunk's file path, \
score, line range and code. \`path\` limits the search to one folder.`

/**
 * codebase_search: Roo-Code's semantic search tool, answered by the workspace's codebase index (lexical out of
 * the box, hybrid with vectors when an embedder is configured). The output is Roo's text, so prompts and
 * users that know Roo read it unchanged; a note (indexing still running) goes before `Query:`.
 */
export const codebaseSearch = defineTool({
  name: "codebase_search",
  group: "read",
  params,
  description,
  available: (ctx) => ctx.hasCodebaseIndex,
  async prepare({ query, path }, ctx) {
    const indexes = ctx.codebaseIndexes ?? []
    if (indexes.length === 0) {
      return {
        result: errorResult(
          "codebase_search has no index for this workspace (agent.codebaseIndex.enabled is off, or no folder is open). Use search_files with a regex, or list_code_definition_names, instead.",
        ),
      }
    }
    let within: string | undefined
    let where = "the workspace"
    if (path !== undefined && path.trim() !== "" && path.trim() !== ".") {
      const guarded = guardPath(ctx, path, "read")
      if (!guarded.ok) return { result: errorResult(guarded.message) }
      if (!guarded.root)
        return {
          result: errorResult(
            `Path "${path}" is outside the workspace; the codebase index covers the workspace folders only. Leave path out, or give a folder inside the workspace.`,
          ),
        }
      where = displayPath(ctx.workspaceFolders, guarded.absPath)
      const info = await statOrProblem(guarded.absPath, where)
      // A file is accepted too: its own chunks only.
      if ("kind" in info && info.kind !== "directory")
        return {
          result: errorResult(
            info.kind === "missing"
              ? `Folder not found: ${where}. Use list_files to see which folders exist, or leave path out.`
              : info.message,
          ),
        }
      within = guarded.absPath
    }
    const targets = within ? indexes.filter((index) => containingRoot([index.root], within!)) : indexes
    const limit = ctx.settings.codebaseIndex.maxResults
    const outcomes = await Promise.all(targets.map((index) => index.search(query, { within, limit, signal: ctx.signal })))
    const hits = outcomes
      .flatMap((o) => o.hits)
      .filter((hit) => !isIgnored(ctx.workspaceFolders, hit.absPath))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
    const notes = outcomes.map((o) => o.note).filter((note): note is string => Boolean(note))
    const text = formatResults(query, hits, (abs) => displayPath(ctx.workspaceFolders, abs), notes)
    const summary = `Searched ${where} for "${query}": ${hits.length} result${hits.length === 1 ? "" : "s"}`
    const result = textResult(text, summary)
    return {
      preview: {
        subject: { kind: "read", paths: [where === "the workspace" ? "." : where] },
        title: `Search ${where} for "${query}"`,
        detail: summary,
      },
      run: async () => result,
    }
  },
})

/** Roo-Code's codebase_search text, with any notes on lines before it. */
export function formatResults(query: string, hits: CodeSearchHit[], show: (absPath: string) => string, notes: string[] = []): string {
  const head = notes.map((note) => `${note}\n`).join("")
  if (hits.length === 0) return `${head}No relevant code snippets found for the query: "${query}"`
  const blocks = hits.map(
    (hit) =>
      `File path: ${show(hit.absPath)}\nScore: ${formatScore(hit.score)}\nLines: ${hit.startLine}-${hit.endLine}\nCode Chunk: ${hit.text}\n`,
  )
  return `${head}Query: ${query}\nResults:\n\n${blocks.join("\n")}`
}

/** Four decimals are enough to order by; rounding keeps a sorted list non-increasing. */
function formatScore(score: number): string {
  return String(Number(score.toFixed(4)))
}
