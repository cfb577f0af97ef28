/**
 * The retrieval corpus, CodeSearchNet-style: a real library's sources (not ours), copied with every doc
 * comment (JSDoc) blanked out — newlines kept, so line numbers stay — and one query per documented
 * function or method: the first sentence of its doc comment, whose words are therefore not in the indexed
 * code. The target is the documented declaration's line range. Parsed with the TypeScript compiler API.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import ts from "typescript"

export interface Query {
  text: string
  /** Corpus-relative, `/`-separated. */
  path: string
  /** 1-based, inclusive: the declaration without its doc comment. */
  startLine: number
  endLine: number
}

export interface Corpus {
  root: string
  files: number
  bytes: number
  queries: Query[]
}

const SOURCE = /\.(ts|js|mjs|cjs)$/
const DECLARATION = /\.d\.[cm]?ts$/

/** Copies `source` (recursively, sources only) to `target` with doc comments blanked; returns the queries. */
export function prepareCorpus(source: string, target: string, maxQueries: number): Corpus {
  const queries: Query[] = []
  let files = 0
  let bytes = 0
  for (const file of walk(source)) {
    const rel = relative(source, file).split("\\").join("/")
    const text = readFileSync(file, "utf8")
    const { stripped, found } = stripDocs(rel, text)
    const out = join(target, rel)
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, stripped)
    files++
    bytes += Buffer.byteLength(stripped)
    queries.push(...found)
  }
  // A deterministic spread over the whole corpus when there are more than asked for.
  const step = Math.max(1, queries.length / maxQueries)
  const picked: Query[] = []
  for (let i = 0; i < queries.length && picked.length < maxQueries; i += step) picked.push(queries[Math.floor(i)]!)
  return { root: target, files, bytes, queries: picked }
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* walk(path)
    else if (SOURCE.test(name) && !DECLARATION.test(name)) yield path
  }
}

function stripDocs(rel: string, text: string): { stripped: string; found: Query[] } {
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, rel.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS)
  const ranges: [number, number][] = []
  const found: Query[] = []
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1
  const visit = (node: ts.Node) => {
    const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc
    if (docs?.length) {
      for (const doc of docs) ranges.push([doc.getStart(sf), doc.getEnd()])
      const sentence = firstSentence(ts.getTextOfJSDocComment(docs[docs.length - 1]!.comment) ?? "")
      const target = declarationOf(node)
      if (sentence && target)
        found.push({ text: sentence, path: rel, startLine: lineOf(target.getStart(sf, false)), endLine: lineOf(target.getEnd()) })
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  let stripped = text
  for (const [start, end] of ranges.sort((a, b) => b[0] - a[0])) {
    stripped = stripped.slice(0, start) + stripped.slice(start, end).replace(/[^\n]/g, " ") + stripped.slice(end)
  }
  return { stripped: stripped.replace(/[ \t]+$/gm, ""), found }
}

/** Functions and methods with a body (what a developer would look for), else undefined. */
function declarationOf(node: ts.Node): ts.Node | undefined {
  if (
    (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessor(node)) &&
    node.body
  )
    return node
  if (ts.isVariableStatement(node)) {
    const init = node.declarationList.declarations[0]?.initializer
    if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) return node
  }
  if (ts.isPropertyAssignment(node) && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) return node
  return undefined
}

/** The doc's first sentence, {@link X} as X, when it has at least four words. */
function firstSentence(doc: string): string | undefined {
  const plain = doc
    .replace(/\{@\w+\s+([^}|]+)(\|[^}]*)?\}/g, "$1")
    .replace(/\s+/g, " ")
    .trim()
  const sentence = (plain.match(/^.*?[.!?](\s|$)/)?.[0] ?? plain).trim()
  return sentence.split(" ").length >= 4 ? sentence : undefined
}
