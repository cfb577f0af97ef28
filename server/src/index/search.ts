import { relative, sep } from "node:path"
import { readIndexableText, statIndexable } from "./file-scan"
import type { LexicalIndex } from "./lexical-index"
import { fuseRanks, isWithin } from "./ranking"
import type { SemanticIndex } from "./semantic-index"
import type { CodeSearchHit, CodeSearchOptions, CodeSearchOutcome } from "./types"

/**
 * One search over an index: lexical hits alone, or fused with vector hits (reciprocal rank fusion) when an
 * embedder is configured; then each hit's text is read from the file as it is now, after checking the
 * file may still be shown (ignore rules and the sandbox may have changed since it was indexed).
 */

/** Candidates taken from each list before fusing. */
const CANDIDATES = 50
/** Longest Code Chunk shown; a longer one is cut at a line end and followed by a `...` line. */
export const MAX_SHOWN_CHARS = 6000

export interface SearchSources {
  root: string
  lexical: LexicalIndex
  semantic?: SemanticIndex
}

interface Candidate {
  path: string
  startLine: number
  endLine: number
  score: number
}

export async function searchIndex(sources: SearchSources, query: string, options: CodeSearchOptions): Promise<CodeSearchOutcome> {
  const folder = options.within ? relative(sources.root, options.within).split(sep).join("/") : ""
  const accept = (path: string) => isWithin(path, folder)
  const lexical = sources.lexical.search(query, CANDIDATES, accept)
  let candidates: Candidate[] = lexical
  let note: string | undefined
  if (sources.semantic) {
    try {
      // With a folder filter the nearest vectors may all lie elsewhere: ask for more, filter here.
      const vectors = (await sources.semantic.search(query, folder ? CANDIDATES * 4 : CANDIDATES, options.signal)).filter((h) =>
        accept(h.path),
      )
      const byId = new Map<string, Candidate>([...vectors, ...lexical].map((h) => [h.id, h]))
      candidates = fuseRanks([lexical, vectors.slice(0, CANDIDATES)]).map(({ id, score }) => ({ ...byId.get(id)!, score }))
    } catch (error) {
      note = `Note: semantic search failed (${(error as Error).message}); these results are lexical only.`
    }
  }
  const hits = await readHits(sources.root, candidates, options.limit)
  return note ? { hits, note } : { hits }
}

/** The first `limit` candidates that can still be shown, skipping any that overlap a better one. */
async function readHits(root: string, candidates: Candidate[], limit: number): Promise<CodeSearchHit[]> {
  const hits: CodeSearchHit[] = []
  const files = new Map<string, Promise<string[] | undefined>>()
  const shown = new Map<string, { startLine: number; endLine: number }[]>()
  for (const candidate of candidates) {
    if (hits.length >= limit) break
    const ranges = shown.get(candidate.path) ?? []
    if (ranges.some((r) => r.startLine <= candidate.endLine && candidate.startLine <= r.endLine)) continue
    if (!files.has(candidate.path)) files.set(candidate.path, linesOf(root, candidate.path))
    const lines = await files.get(candidate.path)!
    if (!lines || candidate.startLine > lines.length) continue
    const endLine = Math.min(candidate.endLine, lines.length)
    hits.push({
      absPath: `${root}${sep}${candidate.path.split("/").join(sep)}`,
      startLine: candidate.startLine,
      endLine,
      score: candidate.score,
      text: cut(lines.slice(candidate.startLine - 1, endLine).join("\n")),
    })
    shown.set(candidate.path, [...ranges, { startLine: candidate.startLine, endLine }])
  }
  return hits
}

async function linesOf(root: string, relPath: string): Promise<string[] | undefined> {
  const file = await statIndexable(root, `${root}${sep}${relPath.split("/").join(sep)}`)
  if (!file) return undefined
  const text = await readIndexableText(file.absPath)
  return text?.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line))
}

function cut(text: string): string {
  if (text.length <= MAX_SHOWN_CHARS) return text
  const end = text.lastIndexOf("\n", MAX_SHOWN_CHARS)
  return `${text.slice(0, end > 0 ? end : MAX_SHOWN_CHARS)}\n...`
}
