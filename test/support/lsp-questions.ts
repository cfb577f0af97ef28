import { relative } from "node:path"
import { fileURLToPath } from "node:url"
import { expect } from "vitest"
import { positionOf, type TypescriptOracle } from "./typescript-oracle"

/** One lsp tool call on the PROJECT of typescript-oracle.ts, the symbol found by its text. */
export interface LspQuestion {
  operation: string
  file?: string
  needle?: string
  nth?: number
  query?: string
}

/** Every operation of the lsp tool, once. */
export const QUESTIONS: LspQuestion[] = [
  { operation: "goToDefinition", file: "src/main.ts", needle: "describeShape", nth: 1 },
  { operation: "findReferences", file: "src/shape.ts", needle: "describeShape" },
  { operation: "hover", file: "src/main.ts", needle: "describeShape", nth: 1 },
  { operation: "documentSymbol", file: "src/shape.ts" },
  { operation: "workspaceSymbol", file: "src/main.ts", query: "describe" },
  { operation: "goToImplementation", file: "src/shape.ts", needle: "Shape" },
  { operation: "incomingCalls", file: "src/shape.ts", needle: "describeShape" },
  { operation: "outgoingCalls", file: "src/main.ts", needle: "main" },
]

/** The lsp tool's params for a question. */
export function paramsOf(root: string, q: LspQuestion): Record<string, unknown> {
  const at = q.needle && q.file ? positionOf(root, q.file, q.needle, q.nth ?? 0) : undefined
  return { operation: q.operation, ...(q.file ? { filePath: q.file } : {}), ...(at ?? {}), ...(q.query ? { query: q.query } : {}) }
}

/** `path:line:character` of every location line of an lsp tool result, sorted, without duplicates. */
export function placesIn(text: string): string[] {
  const places = text
    .split("\n")
    .map((line) => /^(\S+:\d+:\d+) {2}/.exec(line)?.[1])
    .filter((p): p is string => p !== undefined)
  return [...new Set(places)].sort()
}

/**
 * Checks an lsp tool result against typescript-language-server's own answer to the same question (the
 * oracle, asked directly): the same locations, the same hover markdown, the same symbols and lines.
 */
export async function expectSameAsOracle(oracle: TypescriptOracle, q: LspQuestion, text: string): Promise<void> {
  const p = paramsOf(oracle.root, q) as { filePath?: string; line?: number; character?: number; query?: string }
  const textDocument = p.filePath ? { uri: oracle.uri(p.filePath) } : undefined
  const position = p.line ? { line: p.line - 1, character: p.character! - 1 } : undefined
  for (const file of ["src/shape.ts", "src/circle.ts", "src/main.ts"]) await oracle.open(file)
  const ask = (method: string, extra: object = {}) => oracle.request(method, { textDocument, position, ...extra })
  const rel = (uri: string) => relative(oracle.root, fileURLToPath(uri))
  const place = (uri: string, pos: { line: number; character: number }) => `${rel(uri)}:${pos.line + 1}:${pos.character + 1}`
  switch (q.operation) {
    case "goToDefinition":
      return expect(placesIn(text)).toEqual([...new Set(oracle.placesOf(await ask("textDocument/definition")))])
    case "goToImplementation":
      return expect(placesIn(text)).toEqual([...new Set(oracle.placesOf(await ask("textDocument/implementation")))])
    case "findReferences": {
      const refs = await ask("textDocument/references", { context: { includeDeclaration: true } })
      expect(refs.length).toBeGreaterThan(3)
      return expect(placesIn(text)).toEqual([...new Set(oracle.placesOf(refs))])
    }
    case "hover": {
      const hover = await ask("textDocument/hover")
      return expect(text).toBe(hover.contents.value.trim())
    }
    case "documentSymbol": {
      const symbols: any[] = await oracle.request("textDocument/documentSymbol", { textDocument })
      const flat: any[] = []
      const walk = (list: any[]) => list.forEach((s) => (flat.push(s), walk(s.children ?? [])))
      walk(symbols)
      const lines = text.split("\n").slice(1)
      expect(lines).toHaveLength(flat.length)
      for (const s of flat) {
        const start = s.range.start.line + 1
        const end = s.range.end.line + 1
        const range = start === end ? `${start}` : `${start}-${end}`
        expect(lines.some((l) => l.includes(` ${s.name}`) && l.endsWith(`  ${range}`))).toBe(true)
      }
      return
    }
    case "workspaceSymbol": {
      const symbols: any[] = await oracle.request("workspace/symbol", { query: p.query })
      const expected = symbols.map((s) => `${s.name}  ${place(s.location.uri, s.location.range.start)}`).sort()
      expect(expected.length).toBeGreaterThan(1)
      const got = text
        .split("\n")
        .map((l) => /(\S+ {2}\S+:\d+:\d+)$/.exec(l)?.[1])
        .filter(Boolean)
        .sort()
      return expect(got).toEqual(expected)
    }
    case "incomingCalls":
    case "outgoingCalls": {
      const items = await ask("textDocument/prepareCallHierarchy")
      const method = q.operation === "incomingCalls" ? "callHierarchy/incomingCalls" : "callHierarchy/outgoingCalls"
      const calls: any[] = (await Promise.all(items.map((item: unknown) => oracle.request(method, { item })))).flat()
      // Incoming: each call site in the caller; outgoing: each callee where it is declared.
      const expected =
        q.operation === "incomingCalls"
          ? calls.flatMap((c) => c.fromRanges.map((r: any) => place(c.from.uri, r.start)))
          : calls.map((c) => place(c.to.uri, c.to.selectionRange.start))
      // Callees outside the workspace (lib.d.ts's Array.join) are left out of the tool's answer, and counted.
      const inside = expected.filter((e) => !e.startsWith(".."))
      expect(inside.length).toBeGreaterThan(1)
      if (inside.length < expected.length) expect(text).toContain(`(${expected.length - inside.length} left out`)
      return expect(placesIn(text)).toEqual([...new Set(inside)].sort())
    }
  }
}
