import { Parser, Language } from "web-tree-sitter"
import { createRequire } from "node:module"
const req = createRequire(process.cwd() + "/package.json")
await Parser.init()
for (const g of ["tree-sitter-bash.wasm"]) {
const lang = await Language.load(req.resolve("@vscode/tree-sitter-wasm/wasm/" + g))
const names = new Set()
for (let i = 0; i < lang.nodeTypeCount; i++) { const n = lang.nodeTypeForId(i); if (n && lang.nodeTypeIsNamed(i) && lang.nodeTypeIsVisible(i)) names.add(n) }
console.log(g, [...names].sort().join(" "))
}
