import { spawn, type ChildProcess } from "node:child_process"
import { readFileSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { dirname, join, relative } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node"

export const TSLS = fileURLToPath(new URL("../../node_modules/typescript-language-server/lib/cli.mjs", import.meta.url))
/** agent.languageServers naming the real typescript-language-server (a dev dependency). */
export const TYPESCRIPT_SERVERS = { typescript: { command: [process.execPath, TSLS, "--stdio"], extensions: [".ts"] } }

/**
 * A small multi-file TypeScript project: an interface with two implementations, a function called from
 * three files, a call chain. Positions the tests ask about are found by text, so the files can change.
 */
export const PROJECT: Record<string, string> = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022" }, include: ["src"] }),
  "src/shape.ts": [
    "export interface Shape {",
    "  area(): number",
    "}",
    "",
    "export class Square implements Shape {",
    "  constructor(private readonly side: number) {}",
    "  area(): number {",
    "    return this.side * this.side",
    "  }",
    "}",
    "",
    "/** Says how big a shape is. */",
    "export function describeShape(shape: Shape): string {",
    "  return `area ${shape.area()}`",
    "}",
    "",
  ].join("\n"),
  "src/circle.ts": [
    'import { describeShape, type Shape } from "./shape"',
    "",
    "export class Circle implements Shape {",
    "  constructor(private readonly radius: number) {}",
    "  area(): number {",
    "    return Math.PI * this.radius ** 2",
    "  }",
    "}",
    "",
    "export function describeCircle(radius: number): string {",
    "  return describeShape(new Circle(radius))",
    "}",
    "",
  ].join("\n"),
  "src/main.ts": [
    'import { Circle, describeCircle } from "./circle"',
    'import { describeShape, Square } from "./shape"',
    "",
    "export function main(): string {",
    '  return [describeShape(new Square(2)), describeCircle(1), describeShape(new Circle(3))].join("\\n")',
    "}",
    "",
  ].join("\n"),
}

export async function writeProject(root: string, files: Record<string, string> = PROJECT): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), text)
  }
}

/** The 1-based line and character of the `nth` (0-based) occurrence of `needle` in a file, as the model would give them. */
export function positionOf(root: string, path: string, needle: string, nth = 0): { line: number; character: number } {
  const lines = readFileSync(join(root, path), "utf8").split("\n")
  let seen = 0
  for (let i = 0; i < lines.length; i++) {
    let at = lines[i]!.indexOf(needle)
    while (at >= 0) {
      if (seen++ === nth) return { line: i + 1, character: at + 1 }
      at = lines[i]!.indexOf(needle, at + 1)
    }
  }
  throw new Error(`${needle} not found in ${path}`)
}

/**
 * typescript-language-server asked directly, over its own stdio: the oracle the lsp tool's answers are
 * compared with, and the "editor's language server" a test client answers agent/languageFeature from.
 */
export class TypescriptOracle {
  private constructor(
    private readonly proc: ChildProcess,
    readonly connection: MessageConnection,
    readonly root: string,
  ) {}

  static async start(root: string): Promise<TypescriptOracle> {
    const proc = spawn(process.execPath, [TSLS, "--stdio"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] })
    proc.stderr!.resume()
    const connection = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!))
    connection.onRequest(() => null)
    connection.listen()
    const rootUri = pathToFileURL(root).toString()
    await connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: "ws" }],
      capabilities: {
        textDocument: {
          definition: { linkSupport: true },
          implementation: { linkSupport: true },
          hover: { contentFormat: ["markdown", "plaintext"] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          callHierarchy: {},
          rename: {},
        },
        workspace: { symbol: {}, workspaceEdit: { documentChanges: true } },
      },
    })
    await connection.sendNotification("initialized", {})
    return new TypescriptOracle(proc, connection, root)
  }

  /**
   * Opens the project's files and waits until the project is loaded, as in an editor that has had them open
   * for a while: typescript-language-server answers from a syntax-only server until then (a definition
   * stops at the import). Polls one cross-file definition; bounded.
   */
  async warm(files: string[] = ["src/shape.ts", "src/circle.ts", "src/main.ts"]): Promise<void> {
    for (const file of files) await this.open(file)
    const at = positionOf(this.root, "src/main.ts", "describeShape", 1)
    const deadline = Date.now() + 120_000
    while (Date.now() < deadline) {
      const found = await this.request("textDocument/definition", {
        textDocument: { uri: this.uri("src/main.ts") },
        position: { line: at.line - 1, character: at.character - 1 },
      })
      if (JSON.stringify(found).includes("shape.ts")) return
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    throw new Error("typescript-language-server did not load the project within 120 s")
  }

  uri(path: string): string {
    return pathToFileURL(join(this.root, path)).toString()
  }

  /** Opens a file from disk (like an editor buffer, or the core's didOpen). */
  async open(path: string): Promise<void> {
    const text = readFileSync(join(this.root, path), "utf8")
    await this.connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: this.uri(path), languageId: "typescript", version: 1, text },
    })
  }

  request(method: string, params: unknown): Promise<any> {
    return this.connection.sendRequest(method, params)
  }

  /** `rel:line:character` (1-based) of each location, the way the lsp tool prints them, sorted. */
  placesOf(locations: any[]): string[] {
    return locations
      .map((l) => {
        const uri = l.targetUri ?? l.uri
        const range = l.targetSelectionRange ?? l.range
        const rel = relative(this.root, fileURLToPath(uri))
        return `${rel}:${range.start.line + 1}:${range.start.character + 1}`
      })
      .sort()
  }

  async stop(): Promise<void> {
    await Promise.race([this.connection.sendRequest("shutdown").catch(() => undefined), new Promise((r) => setTimeout(r, 2000))])
    this.connection.dispose()
    this.proc.kill("SIGKILL")
  }
}

/**
 * agent/languageFeature answered the way the editor clients do (clients/neovim, clients/emacs,
 * clients/vscode): the matching LSP request to the buffer's server; call hierarchies as
 * prepareCallHierarchy then incoming/outgoing calls of each item; null for a file no server covers.
 */
export async function answerLanguageFeature(oracle: TypescriptOracle, params: any): Promise<unknown> {
  if (params.uri && !params.uri.endsWith(".ts")) return null
  const textDocument = params.uri ? { uri: params.uri } : undefined
  const position = params.position
  if (params.uri) await oracle.open(relative(oracle.root, fileURLToPath(params.uri)))
  switch (params.operation) {
    case "goToDefinition":
      return oracle.request("textDocument/definition", { textDocument, position })
    case "goToImplementation":
      return oracle.request("textDocument/implementation", { textDocument, position })
    case "findReferences":
      return oracle.request("textDocument/references", { textDocument, position, context: { includeDeclaration: true } })
    case "hover":
      return oracle.request("textDocument/hover", { textDocument, position })
    case "documentSymbol":
      return oracle.request("textDocument/documentSymbol", { textDocument })
    case "workspaceSymbol":
      return oracle.request("workspace/symbol", { query: params.query ?? "" })
    case "rename":
      return oracle.request("textDocument/rename", { textDocument, position, newName: params.newName })
    case "incomingCalls":
    case "outgoingCalls": {
      const items = (await oracle.request("textDocument/prepareCallHierarchy", { textDocument, position })) ?? []
      const method = params.operation === "incomingCalls" ? "callHierarchy/incomingCalls" : "callHierarchy/outgoingCalls"
      const calls = await Promise.all(items.map((item: unknown) => oracle.request(method, { item })))
      return calls.flat()
    }
    default:
      return null
  }
}
