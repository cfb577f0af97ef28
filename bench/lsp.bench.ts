/**
 * The lsp tool against search_files on a real TypeScript project: zod's own sources (node_modules/zod/src/v4/core,
 * 21 files, ~16.5k lines), copied into a temp workspace with a tsconfig. 50 definition and 50 reference
 * questions, each answered with one lsp call (goToDefinition at a use / findReferences at the declaration)
 * and with one search_files call for the exact identifier (`\bname\b`), the way a model without lsp looks.
 *
 * The right answers come from the TypeScript compiler API (typescript's LanguageService over the same files),
 * not from the language server under test. Recall: the share of right locations (file:line) present in the
 * tool's answer; search_files lists context lines too, which only helps its recall. Tokens: the answer text
 * by @anthropic-ai/tokenizer. Latency: each warm lsp call (the core's own typescript-language-server,
 * agent.languageServers), and the cold start: a fresh server's first answer, its start and project load included.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { countTokens } from "@anthropic-ai/tokenizer"
import ts from "typescript"
import { defaultSettings, type Settings } from "../server/src/config/schema"
import { LanguageServers } from "../server/src/language/language-servers"
import { ServerLanguagePort } from "../server/src/language/server-language-port"
import { lsp } from "../server/src/tools/lsp"
import { searchFiles } from "../server/src/tools/search-files"
import type { ToolDefinition } from "../server/src/tools/tool"
import { makeToolContext } from "../test/support/tool-context"
import { TYPESCRIPT_SERVERS } from "../test/support/typescript-oracle"
import { stats, type BenchTable } from "./lib"

const SOURCE = fileURLToPath(new URL("../node_modules/zod/src/v4/core", import.meta.url))
const QUESTIONS = 50

interface Question {
  name: string
  /** Where the model asks from (1-based), workspace-relative file. */
  file: string
  line: number
  character: number
  /** The right locations, "file:line" (1-based). */
  truth: string[]
}

function copyProject(): string {
  const root = mkdtempSync(join(tmpdir(), "agent-lsp-bench-lsp-"))
  cpSync(SOURCE, join(root, "core"), { recursive: true, filter: (p) => !p.includes("/tests") })
  writeFileSync(
    join(root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "es2022", module: "esnext", moduleResolution: "bundler", strict: true, noEmit: true, skipLibCheck: true },
      include: ["core"],
    }),
  )
  return root
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  )
}

/** The compiler's view: a LanguageService over the copied files (the truth the answers are checked against). */
function languageService(root: string): ts.LanguageService {
  const files = tsFiles(join(root, "core"))
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
  }
  return ts.createLanguageService({
    getScriptFileNames: () => files,
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) => (existsSync(f) ? ts.ScriptSnapshot.fromString(readFileSync(f, "utf8")) : undefined),
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
  })
}

const place = (root: string, file: string, text: string, pos: number) => {
  const { line } = ts.getLineAndCharacterOfPosition(ts.createSourceFile(file, text, ts.ScriptTarget.Latest), pos)
  return `${relative(root, file)}:${line + 1}`
}

/**
 * Definition questions: uses of a name declared in another project file (imports resolved); reference
 * questions: those names at their declarations. Spread evenly over all candidates, deterministic.
 */
function questions(root: string, service: ts.LanguageService): { definitions: Question[]; references: Question[] } {
  const program = service.getProgram()!
  const candidates: { name: string; file: string; pos: number; decl: { file: string; pos: number } }[] = []
  const seen = new Set<string>()
  for (const source of program.getSourceFiles()) {
    if (!source.fileName.startsWith(root)) continue
    const visit = (node: ts.Node) => {
      if (ts.isIdentifier(node) && !ts.isImportSpecifier(node.parent) && node.text.length > 3) {
        const defs = service.getDefinitionAtPosition(source.fileName, node.getStart())
        const def = defs?.length === 1 ? defs[0] : undefined
        if (def && def.fileName !== source.fileName && def.fileName.startsWith(root) && !seen.has(node.text)) {
          seen.add(node.text)
          candidates.push({
            name: node.text,
            file: source.fileName,
            pos: node.getStart(),
            decl: { file: def.fileName, pos: def.textSpan.start },
          })
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  candidates.sort((a, b) => a.name.localeCompare(b.name))
  const step = Math.max(1, Math.floor(candidates.length / QUESTIONS))
  const picked = candidates.filter((_, i) => i % step === 0).slice(0, QUESTIONS)
  const text = (f: string) => readFileSync(f, "utf8")
  const at = (file: string, pos: number) =>
    ts.getLineAndCharacterOfPosition(ts.createSourceFile(file, text(file), ts.ScriptTarget.Latest), pos)
  const definitions = picked.map((c) => {
    const p = at(c.file, c.pos)
    return {
      name: c.name,
      file: relative(root, c.file),
      line: p.line + 1,
      character: p.character + 1,
      truth: [place(root, c.decl.file, text(c.decl.file), c.decl.pos)],
    }
  })
  const references = picked.map((c) => {
    const p = at(c.decl.file, c.decl.pos)
    const refs = service.getReferencesAtPosition(c.decl.file, c.decl.pos) ?? []
    const truth = [
      ...new Set(refs.filter((r) => r.fileName.startsWith(root)).map((r) => place(root, r.fileName, text(r.fileName), r.textSpan.start))),
    ]
    return { name: c.name, file: relative(root, c.decl.file), line: p.line + 1, character: p.character + 1, truth }
  })
  return { definitions, references }
}

/** "file:line" of every line an answer lists: lsp's `path:line:character`, search_files' `# path` + `N | text`. */
function listed(text: string): Set<string> {
  const out = new Set<string>()
  let file = ""
  for (const line of text.split("\n")) {
    const loc = /^(\S+?):(\d+):\d+ {2}/.exec(line)
    if (loc) out.add(`${loc[1]}:${loc[2]}`)
    const header = /^# (.+)$/.exec(line)
    if (header) file = header[1]!
    const numbered = /^(\d+) \| /.exec(line)
    if (numbered && file) out.add(`${file}:${numbered[1]}`)
  }
  return out
}

async function answer(tool: ToolDefinition, params: unknown, ctx: ReturnType<typeof makeToolContext>): Promise<string> {
  const outcome = await tool.prepare(tool.params.parse(params), ctx)
  const result = "result" in outcome ? outcome.result : await outcome.run()
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")
}

interface Tally {
  calls: number
  tokens: number[]
  recall: number[]
  ms: number[]
}

export default async function bench(): Promise<BenchTable[]> {
  const root = copyProject()
  const settings: Settings = {
    ...defaultSettings(),
    languageServers: TYPESCRIPT_SERVERS,
    lsp: { ...defaultSettings().lsp, timeoutSeconds: 180 },
  }
  const servers = new LanguageServers({ folders: () => [root], settings: () => settings, log: () => undefined })
  const ctx = makeToolContext(root, { settings, language: new ServerLanguagePort(servers, () => settings) })
  try {
    const { definitions, references } = questions(root, languageService(root))
    // Cold start: a fresh server's first answer, its start and the project's load included.
    const coldStart = performance.now()
    await answer(
      lsp,
      { operation: "goToDefinition", filePath: definitions[0]!.file, line: definitions[0]!.line, character: definitions[0]!.character },
      ctx,
    )
    const coldMs = performance.now() - coldStart
    const rows: (string | number)[][] = []
    const latencies: number[] = []
    for (const [kind, list, operation] of [
      ["definition", definitions, "goToDefinition"],
      ["references", references, "findReferences"],
    ] as const) {
      const viaLsp: Tally = { calls: 0, tokens: [], recall: [], ms: [] }
      const viaSearch: Tally = { calls: 0, tokens: [], recall: [], ms: [] }
      for (const q of list) {
        let started = performance.now()
        const lspText = await answer(lsp, { operation, filePath: q.file, line: q.line, character: q.character }, ctx)
        viaLsp.ms.push(performance.now() - started)
        started = performance.now()
        const searchText = await answer(searchFiles, { path: ".", regex: `\\b${q.name}\\b` }, ctx)
        viaSearch.ms.push(performance.now() - started)
        for (const [tally, text] of [
          [viaLsp, lspText],
          [viaSearch, searchText],
        ] as const) {
          tally.calls++
          tally.tokens.push(countTokens(text))
          const found = listed(text)
          tally.recall.push(q.truth.filter((t) => found.has(t)).length / Math.max(q.truth.length, 1))
        }
      }
      latencies.push(...viaLsp.ms)
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
      const mean = (xs: number[]) => sum(xs) / xs.length
      for (const [tool, t] of [
        ["lsp", viaLsp],
        ["search_files", viaSearch],
      ] as const)
        rows.push([
          `${list.length} ${kind} questions`,
          tool,
          t.calls,
          sum(t.tokens),
          Math.round(stats(t.tokens).median),
          `${(mean(t.recall) * 100).toFixed(1)}%`,
          `${t.recall.filter((r) => r === 1).length}/${list.length}`,
          Number(stats(t.ms).median.toFixed(1)),
        ])
    }
    // Warm: the same 100 questions again, every file already open in the server.
    const warmMs: number[] = []
    for (const [list, operation] of [
      [definitions, "goToDefinition"],
      [references, "findReferences"],
    ] as const)
      for (const q of list) {
        const started = performance.now()
        await answer(lsp, { operation, filePath: q.file, line: q.line, character: q.character }, ctx)
        warmMs.push(performance.now() - started)
      }
    const firstVisit = stats(latencies)
    const warm = stats(warmMs)
    return [
      {
        title: "lsp vs search_files on zod's TypeScript sources (node_modules/zod/src/v4/core), one call per question",
        columns: [
          "questions",
          "tool",
          "tool calls",
          "result tokens (total)",
          "tokens per answer (median)",
          "recall (mean)",
          "all right locations found",
          "median ms",
        ],
        rows,
        note: "Right locations from the TypeScript compiler API (LanguageService.getDefinitionAtPosition / getReferencesAtPosition), not from the server under test. search_files: one call with \\bNAME\\b over the workspace; its context lines count as found. lsp: the core's own typescript-language-server (agent.languageServers).",
      },
      {
        title: "lsp call latency (the core's typescript-language-server)",
        columns: ["measure", "ms"],
        rows: [
          ["first call, cold (server start + project load + answer)", Math.round(coldMs)],
          [
            `calls during the comparison, median of ${latencies.length} (a file's first question opens it and waits for its analysis)`,
            Number(firstVisit.median.toFixed(1)),
          ],
          [`warm calls, median of ${warmMs.length} (goal ≤ 50 ms)`, Number(warm.median.toFixed(1))],
          ["warm calls, p90", Number(warm.p90.toFixed(1))],
        ],
        note: "Warm: the same 100 questions asked again, every file already open in the server. Times are the tool's whole call (path checks, request, reading the source lines, formatting).",
      },
    ]
  } finally {
    await servers.dispose()
    rmSync(root, { recursive: true, force: true })
  }
}
