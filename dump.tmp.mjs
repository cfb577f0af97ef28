import { Parser, Language } from "web-tree-sitter"
import { createRequire } from "node:module"
const req = createRequire(process.cwd() + "/package.json")
await Parser.init()
const lang = await Language.load(req.resolve("@vscode/tree-sitter-wasm/wasm/" + (process.env.G || "tree-sitter-bash.wasm")))
const p = new Parser(); p.setLanguage(lang)
for (const src of process.argv.slice(2)) {
  const t = p.parse(src)
  console.log("=== " + JSON.stringify(src))
  const walk = (n, d) => { console.log("  ".repeat(d) + (n.isNamed ? n.type : JSON.stringify(n.type)) + (n.isMissing ? " MISSING" : "") + (n.childCount === 0 ? " " + JSON.stringify(n.text) : "") + (n.parent && n.parent.childForFieldName ? "" : "")); for (let i = 0; i < n.childCount; i++) { const f = n.fieldNameForChild(i); if (f) process.stdout.write("  ".repeat(d+1) + f + ": "); walk(n.child(i), f ? 0 : d + 1) } }
  walk(t.rootNode, 0)
}
