import { join } from "node:path"
import type { Settings } from "../config/schema"
import { workspaceKey } from "../config/paths"
import { Embedder } from "./embedder"
import { SemanticIndex } from "./semantic-index"
import { LanceStore } from "./vectors/lance-store"
import { QdrantStore } from "./vectors/qdrant-store"
import type { VectorStore } from "./vectors/vector-store"
import { WorkspaceIndex, type WorkspaceIndexOptions } from "./workspace-index"

/**
 * Builds a workspace folder's index from the settings: always the lexical index; with
 * `codebaseIndex.embedder` also vectors, in LanceDB under the state dir or in Qdrant when `qdrantUrl` is
 * set. The API key is read here, once, from the environment (OPENAI_API_KEY or `apiKeyEnv`).
 */

export interface OpenIndexOptions extends Pick<WorkspaceIndexOptions, "onStatus" | "onWarning" | "watch" | "searchWaitMs" | "saveDelayMs"> {
  root: string
  stateDir: string
  settings: Settings["codebaseIndex"]
  env?: NodeJS.ProcessEnv
}

export function openWorkspaceIndex(options: OpenIndexOptions): WorkspaceIndex {
  const env = options.env ?? process.env
  const key = workspaceKey(options.root)
  const dir = join(options.stateDir, "index", key)
  const { embedder: config, qdrantUrl, apiKeyEnv } = options.settings
  let semantic: SemanticIndex | undefined
  if (config) {
    const apiKey = env[apiKeyEnv ?? "OPENAI_API_KEY"] || undefined
    const embedder = new Embedder({ baseUrl: config.baseUrl, model: config.model, dimensions: config.dimensions, apiKey })
    const store: VectorStore = qdrantUrl
      ? new QdrantStore(qdrantUrl, `agent-lsp-${key}`, env.QDRANT_API_KEY || undefined)
      : new LanceStore(join(dir, "vectors"))
    semantic = new SemanticIndex(embedder, store, join(dir, qdrantUrl ? "semantic-qdrant.json" : "semantic.json"), () =>
      index.statusChanged(),
    )
  }
  const index: WorkspaceIndex = new WorkspaceIndex({ ...options, dir, semantic })
  return index
}
