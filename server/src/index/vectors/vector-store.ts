/**
 * Where chunk vectors live: embedded LanceDB (a folder in the state dir) by default, or a Qdrant server
 * that a team can share. Both answer the same four calls; ranking and path filtering happen above them.
 */

/** One chunk's vector with what is needed to show it without the lexical index. */
export interface VectorPoint {
  /** The chunk id the lexical index uses too (`path#n`), so hybrid ranking can fuse the two lists. */
  id: string
  vector: number[]
  path: string
  startLine: number
  endLine: number
}

export interface VectorHit {
  id: string
  path: string
  startLine: number
  endLine: number
  /** Cosine similarity: higher is closer. */
  score: number
}

export interface VectorStore {
  /** Where the vectors are, for messages ("LanceDB in …", "Qdrant at …"). */
  readonly description: string
  upsert(points: VectorPoint[]): Promise<void>
  deletePaths(paths: string[]): Promise<void>
  search(vector: number[], limit: number): Promise<VectorHit[]>
  /** Drops every vector (the embedder changed, or a rebuild). */
  clear(): Promise<void>
  close(): Promise<void>
}
