import MiniSearch from "minisearch"
import type { Chunk } from "./chunker"
import { normalizeTerm, splitTerms } from "./tokenize"

/**
 * The embedded lexical index: BM25+ (MiniSearch) over chunks, with three fields — the chunk's code, the
 * names of its enclosing definitions and its file path — tokenized for code (./tokenize.ts). It also keeps
 * which files it holds (with the size and mtime they had), so a re-scan re-indexes only what changed.
 */

/** What the index remembers of an indexed file. */
export interface IndexedFile {
  mtimeMs: number
  size: number
  /** Number of chunks; their ids are `${path}#0` … `${path}#${chunks - 1}`. */
  chunks: number
}

/** A chunk the index found, without its text (read from the file when shown). */
export interface LexicalHit {
  id: string
  /** Workspace-relative, `/`-separated. */
  path: string
  startLine: number
  endLine: number
  symbols: string[]
  score: number
}

interface ChunkDocument {
  id: string
  path: string
  symbols: string[]
  text: string
  startLine: number
  endLine: number
}

/** Field weights: a term in a definition's name says more than the same term in its body. */
const BOOST = { symbols: 3, path: 1.5, text: 1 }

const OPTIONS: import("minisearch").Options<ChunkDocument> = {
  fields: ["text", "symbols", "path"],
  storeFields: ["path", "startLine", "endLine", "symbols"],
  tokenize: (text: string) => splitTerms(text),
  processTerm: (term: string) => normalizeTerm(term),
  extractField: (document, field) => {
    const value = document[field as keyof ChunkDocument]
    return Array.isArray(value) ? value.join(" ") : value
  },
  searchOptions: { boost: BOOST, combineWith: "OR" as const },
}

/** Persisted form; `version` changes whenever tokenizing or chunking does, which forces a rebuild. */
interface Persisted {
  version: number
  files: Record<string, IndexedFile>
  index: unknown
}

export const LEXICAL_FORMAT_VERSION = 1

export class LexicalIndex {
  private readonly files = new Map<string, IndexedFile>()
  private chunkCount = 0

  private constructor(private readonly search_: MiniSearch<ChunkDocument>) {}

  static empty(): LexicalIndex {
    return new LexicalIndex(new MiniSearch<ChunkDocument>(OPTIONS))
  }

  /** Loads a persisted index; undefined when it is unreadable or of another format version. */
  static fromJSON(json: string): LexicalIndex | undefined {
    try {
      const parsed = JSON.parse(json) as Persisted
      if (parsed.version !== LEXICAL_FORMAT_VERSION || !parsed.files || !parsed.index) return undefined
      const index = new LexicalIndex(MiniSearch.loadJS<ChunkDocument>(parsed.index as never, OPTIONS))
      for (const [path, file] of Object.entries(parsed.files)) {
        index.files.set(path, file)
        index.chunkCount += file.chunks
      }
      return index
    } catch {
      return undefined
    }
  }

  toJSON(): string {
    const persisted: Persisted = { version: LEXICAL_FORMAT_VERSION, files: Object.fromEntries(this.files), index: this.search_.toJSON() }
    return JSON.stringify(persisted)
  }

  get fileCount(): number {
    return this.files.size
  }

  get chunksTotal(): number {
    return this.chunkCount
  }

  file(path: string): IndexedFile | undefined {
    return this.files.get(path)
  }

  paths(): string[] {
    return [...this.files.keys()]
  }

  /** Replaces whatever the index held for `path` with these chunks. */
  setFile(path: string, chunks: Chunk[], stat: { mtimeMs: number; size: number }): void {
    this.removeFile(path)
    this.search_.addAll(
      chunks.map((chunk, i) => ({
        id: `${path}#${i}`,
        path,
        symbols: chunk.symbols,
        text: chunk.text,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
      })),
    )
    this.files.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, chunks: chunks.length })
    this.chunkCount += chunks.length
  }

  removeFile(path: string): boolean {
    const known = this.files.get(path)
    if (!known) return false
    for (let i = 0; i < known.chunks; i++) this.search_.discard(`${path}#${i}`)
    this.files.delete(path)
    this.chunkCount -= known.chunks
    return true
  }

  /** Best chunks first; `accept` filters by path before the limit applies. */
  search(query: string, limit: number, accept: (path: string) => boolean = () => true): LexicalHit[] {
    const results = this.search_.search(query, { filter: (r) => accept(r.path as string) })
    return results.slice(0, limit).map((r) => ({
      id: r.id as string,
      path: r.path as string,
      startLine: r.startLine as number,
      endLine: r.endLine as number,
      symbols: r.symbols as string[],
      score: r.score,
    }))
  }
}
