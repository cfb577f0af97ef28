/**
 * Entry of the short-lived definitions parser process (see out-of-process.ts): web-tree-sitter and its
 * grammars (tens of MiB of WASM memory that is never given back) live here instead of in the server,
 * and go away when this process exits after a few idle seconds.
 * Protocol over the IPC channel: { id, text, spec } in, { id, definitions } or { id, error } out.
 */
import { extractDefinitions } from "./extract"
import type { LanguageSpec } from "./languages"

interface Job {
  id: number
  text: string
  spec: LanguageSpec
}

process.on("message", (job: Job) => {
  extractDefinitions(job.text, job.spec).then(
    (definitions) => process.send?.({ id: job.id, definitions }),
    (error: unknown) => process.send?.({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
  )
})
// The parent going away closes the channel: leave with it.
process.on("disconnect", () => process.exit(0))
