import { z } from "zod"
import { LanguageOperation } from "@agent-lsp/protocol"
import type { LanguageRequest, ToolContext } from "./context"
import { callLocations, hoverText, toLocations, toSymbols } from "./lsp-results"
import { formatLocations, formatOutline, formatWorkspaceSymbols, ResultFiles } from "./lsp-format"
import { resolveLspTarget } from "./lsp-target"
import { defineTool, errorResult, textResult, type ToolResult } from "./tool"

/** The read-only operations: rename has a tool of its own (rename_symbol, in the edit group). */
const OPERATIONS = LanguageOperation.exclude(["rename"])

// Every token here is in every request of every mode with the read group: descriptions are minimal.
const params = z.object({
  operation: OPERATIONS,
  filePath: z.string().optional(),
  line: z.number().int().optional(),
  character: z.number().int().optional(),
  query: z.string().optional(),
})

const description = "Exact code navigation by the language server. 1-based line, character; query for workspaceSymbol."

/**
 * lsp: opencode's language-server tool (params in its shape), answered by the editor's language servers
 * (agent/languageFeature) or those the core starts (agent.languageServers), never by guessing from text.
 * Always offered, whatever languages are covered, so the tool list stays the same between requests.
 */
export const lsp = defineTool({
  name: "lsp",
  group: "read",
  params,
  description,
  available: () => true,
  async prepare(input, ctx) {
    const target = await resolveLspTarget(ctx, input, input.operation !== "documentSymbol" && input.operation !== "workspaceSymbol")
    if ("failure" in target) return { result: target.failure }
    if (input.operation === "workspaceSymbol" && !input.query?.trim())
      return { result: errorResult('workspaceSymbol needs `query`: the name (or part of it) of the symbol to find, e.g. "parseConfig".') }
    const request: LanguageRequest = {
      operation: input.operation,
      ...(target.absPath ? { path: target.absPath } : {}),
      ...(target.position ? { position: target.position } : {}),
      ...(input.query ? { query: input.query } : {}),
    }
    const result = await answer(ctx, request, target.shown)
    return {
      preview: {
        subject: { kind: "read", paths: [target.shown ?? "."], ...(target.outsideWorkspace ? { outsideWorkspace: true } : {}) },
        title: `lsp ${input.operation}${target.shown ? ` ${target.shown}` : ""}`,
        detail: result.summary,
      },
      run: async () => result,
    }
  },
})

async function answer(ctx: ToolContext, request: LanguageRequest, shown: string | undefined): Promise<ToolResult> {
  const noServer = textResult(
    `No language server answers for ${shown ?? "this workspace"} (the editor has none for it and agent.languageServers names none); use search_files to find it by text.`,
  )
  if (!ctx.language) return noServer
  const answered = await ctx.language.request(request, ctx.signal)
  if (answered.kind === "noServer") return noServer
  if (answered.kind === "failed") return errorResult(answered.message)
  const max = ctx.settings.lsp.maxResults
  const files = new ResultFiles(ctx)
  const at = `${shown ?? ""}${request.position ? `:${request.position.line + 1}:${request.position.character + 1}` : ""}`
  switch (request.operation) {
    case "hover": {
      const withheld = await hoverWithheld(ctx, request, files, at)
      if (withheld) return textResult(withheld, `hover ${at}: withheld`)
      const text = hoverText(answered.result)
      return textResult(text || `No hover information at ${at}.`, `hover ${at}`)
    }
    case "documentSymbol": {
      const outline = formatOutline(toSymbols(answered.result), max)
      return textResult(outline.count ? `${shown}: ${outline.count} symbols\n${outline.text}` : `No symbols in ${shown}.`)
    }
    case "workspaceSymbol": {
      const found = formatWorkspaceSymbols(files, toSymbols(answered.result), max)
      const head = found.count ? `${found.count} symbols matching "${request.query}"` : `No symbols match "${request.query}".`
      return textResult(`${head}${found.count ? `\n${found.text}` : ""}${files.leftOutNote()}`, head)
    }
    default: {
      const locations =
        request.operation === "incomingCalls" || request.operation === "outgoingCalls"
          ? callLocations(answered.result, request.operation === "incomingCalls" ? "incoming" : "outgoing")
          : toLocations(answered.result)
      const found = await formatLocations(files, locations, max)
      const head = found.count
        ? `${request.operation} at ${at}: ${found.count} location${found.count === 1 ? "" : "s"}`
        : `${request.operation} at ${at}: none found.`
      return textResult(`${head}${found.count ? `\n${found.text}` : ""}${files.leftOutNote()}`, head)
    }
  }
}

/**
 * A hover shows the type of the symbol it is on, and a type can carry its definition's text: hovering a
 * constant imported from a `.rooignore`d file shows `const TOKEN: "its value"`. Language servers read those
 * files (a rename must see every use), so the hover is checked where the symbol is defined: when any
 * definition is in a file whose locations are left out (outside the workspace or .rooignore'd), the hover is
 * withheld. Returns the text the model sees instead, or undefined to show the hover.
 */
async function hoverWithheld(ctx: ToolContext, request: LanguageRequest, files: ResultFiles, at: string): Promise<string | undefined> {
  const definition = await ctx.language!.request({ ...request, operation: "goToDefinition" }, ctx.signal)
  if (definition.kind !== "answered")
    return `No hover shown at ${at}: where the symbol is defined could not be checked (${definition.kind === "failed" ? definition.message : "no language server answered"}), and a hover can show text of files the agent may not read. Try again, or use goToDefinition.`
  if (toLocations(definition.result).every((location) => files.place(location.uri) !== undefined)) return undefined
  return `No hover shown at ${at}: the symbol is defined in a file the agent may not read (outside the workspace or .rooignore'd), and its hover would show that file's text. Work with what the readable files say, or ask the user about it.`
}
