import type { Table } from "@lancedb/lancedb"
import type { VectorHit, VectorPoint, VectorStore } from "./vector-store"

/**
 * Vectors in embedded LanceDB: a folder under the state dir, no server. The table is created with the first
 * vectors (their length fixes its schema). @lancedb/lancedb is loaded on first use only: a workspace
 * without an embedder never loads its native module.
 */

const TABLE = "chunks"

export class LanceStore implements VectorStore {
  private table: Promise<Table | undefined> | undefined
  private connection: Promise<import("@lancedb/lancedb").Connection> | undefined

  constructor(private readonly dir: string) {}

  get description(): string {
    return `LanceDB in ${this.dir}`
  }

  async upsert(points: VectorPoint[]): Promise<void> {
    if (points.length === 0) return
    const rows = points.map((p) => ({ id: p.id, path: p.path, startLine: p.startLine, endLine: p.endLine, vector: p.vector }))
    const table = await this.openTable()
    if (!table) {
      const db = await this.connect()
      // "create", not "overwrite": there is no table yet (openTable looked), and overwrite makes LanceDB print
      // "WARN … No existing dataset … it will be created" on stderr at every first index.
      this.table = db.createTable(TABLE, rows, { mode: "create" })
      await this.table
      return
    }
    await table.delete(`id IN (${rows.map((r) => sqlString(r.id)).join(", ")})`)
    await table.add(rows)
  }

  async deletePaths(paths: string[]): Promise<void> {
    const table = await this.openTable()
    if (!table || paths.length === 0) return
    // Chunked so the predicate stays a reasonable size when a branch switch touches thousands of files.
    for (let i = 0; i < paths.length; i += 200) {
      await table.delete(
        `path IN (${paths
          .slice(i, i + 200)
          .map(sqlString)
          .join(", ")})`,
      )
    }
  }

  async search(vector: number[], limit: number): Promise<VectorHit[]> {
    const table = await this.openTable()
    if (!table) return []
    const rows = await table.vectorSearch(vector).distanceType("cosine").limit(limit).toArray()
    return rows.map((row: Record<string, unknown>) => ({
      id: String(row.id),
      path: String(row.path),
      startLine: Number(row.startLine),
      endLine: Number(row.endLine),
      score: 1 - Number(row._distance),
    }))
  }

  async clear(): Promise<void> {
    const db = await this.connect()
    if ((await db.tableNames()).includes(TABLE)) await db.dropTable(TABLE)
    this.table = Promise.resolve(undefined)
  }

  async close(): Promise<void> {
    const table = await this.table?.catch(() => undefined)
    table?.close()
    const db = await this.connection?.catch(() => undefined)
    db?.close()
  }

  private connect() {
    this.connection ??= import("@lancedb/lancedb").then(
      (lancedb) => lancedb.connect(this.dir),
      (error: unknown) => {
        throw new Error(`${LANCEDB_MISSING} (${error instanceof Error ? error.message : String(error)})`)
      },
    )
    return this.connection
  }

  private openTable(): Promise<Table | undefined> {
    this.table ??= this.connect().then(async (db) => ((await db.tableNames()).includes(TABLE) ? db.openTable(TABLE) : undefined))
    return this.table
  }
}

/**
 * Why vectors cannot be stored when LanceDB does not load: the VS Code .vsix leaves its 155 MB native binary
 * out (scripts/server-externals.mjs), and what the user can do instead.
 */
const LANCEDB_MISSING =
  "The embedded vector store (LanceDB, package @lancedb/lancedb) is not installed beside this server: the VS Code " +
  ".vsix leaves it out. Set agent.codebaseIndex.qdrantUrl to a Qdrant server, or point agent.client.serverPath at an " +
  "agent-lsp installed with npm; search stays lexical meanwhile."

/** A SQL string literal for LanceDB's filter language (single quotes doubled). */
function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`
}
