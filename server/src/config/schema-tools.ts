import { z } from "zod"

/** The settings of the tools the model uses: which are offered, and how files, search, browser and the codebase index behave. */

/** agent.tools: which tools the model is offered. */
export const ToolsSettings = z
  .object({
    disabled: z.array(z.string()).default([]).describe("Tools the model is never offered nor allowed to run, in any mode."),
    enabled: z
      .array(z.string())
      .default([])
      .describe("Optional tools to offer besides the defaults (search_replace, edit_file, apply_patch)."),
  })
  .prefault({})

/** agent.files: what the file tools read and list. */
export const FilesSettings = z
  .object({
    readOutsideWorkspace: z
      .boolean()
      .default(false)
      .describe("Let read-only tools read files outside the workspace folders (writing there is never allowed)."),
    listLimit: z.number().int().positive().default(200).describe("The most entries one file listing returns to the model."),
    maxReadBytes: z
      .number()
      .int()
      .positive()
      .default(1024 * 1024)
      .describe("The largest file, in bytes, the agent reads whole; larger files must be read by line ranges."),
  })
  .prefault({})

/** agent.diff: how closely an edit must match the file. */
export const DiffSettings = z
  .object({
    fuzzyThreshold: z
      .number()
      .min(0.5)
      .max(1)
      .default(1.0)
      .describe("How similar (0.5-1) an edit's search text must be to the file's text; 1 means an exact match."),
  })
  .prefault({})

/** agent.search: the ripgrep that search_files runs. */
export const SearchSettings = z
  .object({
    ripgrepPath: z
      .string()
      .min(1)
      .optional()
      .describe("Path of the rg program used for searching; unset means the bundled ripgrep, else rg on PATH."),
  })
  .prefault({})

/** agent.browser: the browser behind browser_action. */
export const BrowserSettings = z
  .object({
    executablePath: z
      .string()
      .min(1)
      .optional()
      .describe("Chrome/Chromium binary for browser_action; default: chromium, chromium-browser or google-chrome on PATH."),
    viewport: z
      .string()
      .regex(/^\d{3,4}x\d{3,4}$/, 'a size "WxH", e.g. "900x600"')
      .default("900x600")
      .describe('Viewport of browser_action screenshots, "WxH" in CSS pixels (device scale factor 1).'),
    remoteUrl: z
      .string()
      .url()
      .optional()
      .describe("Attach browser_action to a running browser over CDP (http://host:port or ws://...) instead of starting one."),
  })
  .prefault({})

/** agent.codebaseIndex: the index behind codebase_search. */
export const CodebaseIndexSettings = z
  .object({
    enabled: z
      .boolean()
      .default(true)
      .describe(
        "Index the workspace in the background (no set-up needed) so codebase_search can find code by meaning; false turns the index and the tool off.",
      ),
    maxResults: z.number().int().min(1).max(50).default(10).describe("Most results one codebase_search call returns."),
    embedder: z
      .object({
        provider: z.literal("openai-compatible").describe("The embeddings API kind; only openai-compatible today."),
        baseUrl: z.string().url().describe("The embeddings API's base URL including its version, e.g. http://localhost:11434/v1."),
        model: z.string().min(1).describe("The embedding model's name, e.g. text-embedding-3-small or nomic-embed-text."),
        dimensions: z
          .number()
          .int()
          .positive()
          .optional()
          .describe("Vector size to request, for models that can shorten their vectors; unset means the model's own."),
      })
      .optional()
      .describe(
        "An OpenAI-compatible /embeddings endpoint (OpenAI, Ollama, LM Studio, vLLM, llama.cpp): baseUrl includes the version, e.g. http://localhost:11434/v1. With it, search ranks by vectors and words together. Trusted sources only.",
      ),
    qdrantUrl: z
      .string()
      .url()
      .optional()
      .describe(
        "Store the vectors in this Qdrant server (shareable by a team) instead of the embedded LanceDB; key from QDRANT_API_KEY. Trusted sources only.",
      ),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional()
      .describe("Name of the environment variable holding the embedder's API key (default OPENAI_API_KEY). Trusted sources only."),
  })
  .prefault({})
