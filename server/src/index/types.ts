/**
 * What the rest of the server sees of a workspace's codebase index: its status (agent/indexStatus,
 * $/progress) and a search (the codebase_search tool, through ToolContext.codebaseIndex).
 */

/** agent/indexStatus's states (PROTOCOL.md). */
export type IndexState = "disabled" | "indexing" | "ready" | "error"

export interface IndexStatus {
  state: IndexState
  /** Files and chunks in the index now. */
  files: number
  chunks: number
  /** True when an embedder is configured and vectors take part in the ranking. */
  semantic: boolean
  /** While indexing: files done and files found so far (filesTotal is 0 while the folder is being listed). */
  filesDone: number
  filesTotal: number
  /** Chunks with a vector / chunks waiting for one (semantic only). */
  embedded: number
  embedPending: number
  /** A sentence for the user: progress, or what went wrong. */
  message?: string
}

/** One search result, ready to show. */
export interface CodeSearchHit {
  /** Absolute path (the tool shows it relative to the workspace). */
  absPath: string
  /** 1-based, inclusive. */
  startLine: number
  endLine: number
  /** Higher is better; results come best first. */
  score: number
  /** The text of lines startLine..endLine (possibly cut, ending with a `...` line). */
  text: string
}

export interface CodeSearchOutcome {
  hits: CodeSearchHit[]
  /** Said before the results, e.g. how far indexing is when it was not complete. */
  note?: string
}

export interface CodeSearchOptions {
  /** Absolute folder (or file) the results must lie in; undefined = the whole workspace folder. */
  within?: string
  limit: number
  signal?: AbortSignal
}

/** The index as a tool uses it. */
export interface CodebaseIndexPort {
  /** The workspace folder this index covers. */
  readonly root: string
  status(): IndexStatus
  search(query: string, options: CodeSearchOptions): Promise<CodeSearchOutcome>
}
