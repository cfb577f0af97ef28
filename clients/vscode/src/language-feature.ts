import type { ParamsOf } from "@agent-lsp/protocol"
import type { UriLike } from "./vscode-api"

/** What agent/languageFeature needs of the vscode API. */
export interface LanguageApi {
  commands: { executeCommand<T = unknown>(command: string, ...rest: unknown[]): Thenable<T> }
  Uri: { parse(value: string): UriLike }
  Position: new (line: number, character: number) => unknown
}

/** VS Code's built-in commands that ask every extension's language providers, per operation. */
const COMMANDS = {
  goToDefinition: "vscode.executeDefinitionProvider",
  findReferences: "vscode.executeReferenceProvider",
  hover: "vscode.executeHoverProvider",
  goToImplementation: "vscode.executeImplementationProvider",
  rename: "vscode.executeDocumentRenameProvider",
} as const

/**
 * agent/languageFeature: the lsp and rename_symbol tools answered by VS Code's own language providers
 * (vscode.execute…Provider, prepareCallHierarchy/provideIncomingCalls/provideOutgoingCalls), their
 * answers turned into LSP JSON; null when no provider answers for the file.
 */
export async function languageFeature(vscode: LanguageApi, params: ParamsOf<"languageFeature">): Promise<unknown> {
  const uri = params.uri ? vscode.Uri.parse(params.uri) : undefined
  const position = params.position ? new vscode.Position(params.position.line, params.position.character) : undefined
  const run = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args)
  let answer: unknown
  switch (params.operation) {
    case "workspaceSymbol":
      answer = await run("vscode.executeWorkspaceSymbolProvider", params.query ?? "")
      break
    case "documentSymbol":
      answer = await run("vscode.executeDocumentSymbolProvider", uri)
      break
    case "hover":
      answer = oneHover(await run<VscodeHover[] | undefined>(COMMANDS.hover, uri, position))
      break
    case "rename":
      answer = await run(COMMANDS.rename, uri, position, params.newName ?? "")
      break
    case "incomingCalls":
    case "outgoingCalls": {
      const items = (await run<unknown[]>("vscode.prepareCallHierarchy", uri, position)) ?? []
      const command = params.operation === "incomingCalls" ? "vscode.provideIncomingCalls" : "vscode.provideOutgoingCalls"
      answer = (await Promise.all(items.map((item) => run<unknown[]>(command, item)))).flatMap((calls) => calls ?? [])
      break
    }
    default:
      answer = await run(COMMANDS[params.operation], uri, position)
  }
  if (answer === undefined || answer === null) return null
  if (Array.isArray(answer) && answer.length === 0 && params.operation !== "workspaceSymbol") return []
  return toLsp(answer)
}

/** What vscode.Hover carries: MarkdownStrings or MarkedStrings, and where. */
interface VscodeHover {
  contents: ({ value: string; language?: string } | string)[]
  range?: unknown
}

/**
 * executeHoverProvider answers a list (one Hover per provider) where LSP answers one Hover: every part of
 * every hover in order, as MarkedStrings (markdown text, or a code block with its language); undefined
 * when no provider said anything.
 */
function oneHover(hovers: VscodeHover[] | undefined): unknown {
  const contents = (hovers ?? [])
    .flatMap((hover) => hover.contents ?? [])
    .map((part) => (typeof part === "string" || typeof part.language === "string" ? part : part.value))
  if (contents.length === 0) return undefined
  const range = hovers?.find((hover) => hover.range)?.range
  return { contents, ...(range ? { range } : {}) }
}

function isUri(value: object): value is UriLike {
  return "scheme" in value && "fsPath" in value && typeof (value as { toString: unknown }).toString === "function"
}

/**
 * vscode's objects as LSP JSON. Many of its classes keep their state in private fields behind getters
 * (Range, Position, TextEdit, MarkdownString), so shapes are read through the getters, not copied:
 * Uri → string, Range and Position as plain objects, a WorkspaceEdit as `changes`, SymbolKind from
 * 0-based to LSP's 1-based.
 */
export function toLsp(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value
  if (Array.isArray(value)) return value.map(toLsp)
  if (isUri(value)) return value.toString()
  const v = value as Record<string, unknown>
  if (typeof v.entries === "function" && typeof v.size === "number") {
    // vscode.WorkspaceEdit: entries() gives [Uri, TextEdit[]] pairs.
    const changes: Record<string, unknown> = {}
    for (const [uri, edits] of (v.entries as () => [UriLike, unknown[]][])()) changes[uri.toString()] = toLsp(edits)
    return { changes }
  }
  if (typeof v.line === "number" && typeof v.character === "number") return { line: v.line, character: v.character }
  if ("start" in v && "end" in v && typeof v.start === "object" && typeof v.end === "object")
    return { start: toLsp(v.start), end: toLsp(v.end) }
  if ("newText" in v && "range" in v) return { range: toLsp(v.range), newText: v.newText }
  if (typeof v.value === "string" && !("name" in v))
    return typeof v.language === "string" ? { language: v.language, value: v.value } : { value: v.value }
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(v)) {
    if (typeof field === "function" || key.startsWith("_")) continue
    out[key] = key === "kind" && typeof field === "number" && "name" in v ? field + 1 : toLsp(field)
  }
  return out
}
