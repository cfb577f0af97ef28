import { createRequire } from "node:module"
import { setFlagsFromString } from "node:v8"
import type { Language, Parser } from "web-tree-sitter"

/**
 * The one loader of tree-sitter grammars (from @vscode/tree-sitter-wasm, through web-tree-sitter): code
 * definitions and the shell parser both get their parsers here. The runtime and each grammar load lazily,
 * once, on first use.
 */

type TreeSitter = typeof import("web-tree-sitter")

let runtime: Promise<TreeSitter> | undefined
const languages = new Map<string, Promise<Language>>()

// Resolved at run time: web-tree-sitter and the grammars stay outside the esbuild bundle.
const requireHere = createRequire(typeof __filename === "string" ? __filename : import.meta.url)

async function loadRuntime(): Promise<TreeSitter> {
  // V8's optimizing tier recompiles the hot grammar functions in the background: for the bash grammar that
  // kept ~25 MiB of machine code for the server's life, and made parsing slower, not faster (compiling costs
  // more than a command line's parse saves: 0.06 ms a line with the baseline compiler only, 0.14-0.30 ms
  // with tier-up). Set before the first module compiles; this process compiles no other WebAssembly.
  if (!runtime) setFlagsFromString("--liftoff-only")
  runtime ??= import("web-tree-sitter").then(async (mod) => {
    await mod.Parser.init()
    return mod
  })
  return runtime
}

/** A new parser for the grammar file `grammar` (a name in node_modules/@vscode/tree-sitter-wasm/wasm/). */
export async function newParser(grammar: string): Promise<Parser> {
  const ts = await loadRuntime()
  let language = languages.get(grammar)
  if (!language) {
    language = ts.Language.load(requireHere.resolve(`@vscode/tree-sitter-wasm/wasm/${grammar}`))
    languages.set(grammar, language)
  }
  const parser = new ts.Parser()
  parser.setLanguage(await language)
  return parser
}
