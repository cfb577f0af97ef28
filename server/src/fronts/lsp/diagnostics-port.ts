import { AgentMethods, Diagnostics } from "@agent-lsp/protocol"
import type { Connection } from "vscode-languageserver/node"
import type { Settings } from "../../config/schema"
import { toProblems } from "../../diagnostics/problems"
import type { DiagnosticsPort, DiagnosticsWatch, FileProblems, Problem } from "../../tools/context"
import { boundedRequest } from "./bounded-request"
import { pathToUri } from "./documents"

/** The longest wait for the editor to answer agent/diagnostics (less when timeouts.editorSeconds is less). */
const ANSWER_TIMEOUT_MS = 10_000

/**
 * The editor's own diagnostics over agent/diagnostics (clients that declared experimental.agentDiagnostics):
 * asked before an edit, and again diagnostics.settleMs after it, when the editor's language servers have
 * re-checked the buffer.
 */
export class LspDiagnosticsPort implements DiagnosticsPort {
  constructor(
    private readonly connection: Connection,
    private readonly settings: () => Settings,
  ) {}

  async watch(path: string, text: string | undefined, signal: AbortSignal): Promise<DiagnosticsWatch | undefined> {
    const uri = pathToUri(path)
    const before = text === undefined ? [] : await this.fetch(uri, signal)
    return {
      before,
      after: async (_text, afterSignal) => {
        if (!(await sleep(this.settings().diagnostics.settleMs, afterSignal))) return undefined
        return this.fetch(uri, afterSignal)
      },
    }
  }

  /** The editor's problems in the given files (the editor knows no "whole workspace" request). */
  async current(paths: readonly string[], signal: AbortSignal): Promise<FileProblems[] | undefined> {
    if (paths.length === 0) return []
    const answered = await this.fetchMany(paths.map(pathToUri), signal)
    return answered?.map((d, i) => ({ path: paths[i]!, problems: d.problems }))
  }

  /** The editor's problems for one file; undefined when it failed, answered nonsense or took too long. */
  private async fetch(uri: string, signal: AbortSignal): Promise<Problem[] | undefined> {
    const [answer] = (await this.fetchMany([uri], signal)) ?? []
    return answer?.problems
  }

  private async fetchMany(uris: string[], signal: AbortSignal): Promise<{ uri: string; problems: Problem[] }[] | undefined> {
    try {
      const sent = await boundedRequest(
        (token) => this.connection.sendRequest(AgentMethods.diagnostics, { uris }, token),
        Math.min(ANSWER_TIMEOUT_MS, this.settings().timeouts.editorSeconds * 1000),
        signal,
      )
      if (sent.outcome !== "answered") return undefined
      const parsed = Diagnostics.result.safeParse(emptyObjectsAsLists(sent.value))
      if (!parsed.success) return undefined
      // Only what was asked; a file left out of the answer has no problems.
      return uris.map((uri) => ({
        uri,
        problems: toProblems(parsed.data.diagnostics.filter((d) => d.uri === uri).flatMap((d) => d.items)),
      }))
    } catch {
      return undefined
    }
  }
}

/** Waits `ms`; false when `signal` aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false)
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort)
      resolve(true)
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      resolve(false)
    }
    signal.addEventListener("abort", onAbort, { once: true })
  })
}

/**
 * Lua clients (Neovim's vim.json) encode an empty table as `{}`, so an empty list of files or problems
 * may arrive as an empty object: read those as empty lists.
 */
function emptyObjectsAsLists(raw: unknown): unknown {
  const asList = (value: unknown) =>
    value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0 ? [] : value
  if (!raw || typeof raw !== "object") return raw
  const diagnostics = asList((raw as { diagnostics?: unknown }).diagnostics)
  if (!Array.isArray(diagnostics)) return raw
  return {
    diagnostics: diagnostics.map((d) => (d && typeof d === "object" ? { ...d, items: asList((d as { items?: unknown }).items) } : d)),
  }
}
