import { parseCommandLine } from "./server/src/workspace/shell-grammars"
const lines = process.argv.slice(2)
for (const l of lines) {
  const r = await parseCommandLine(l)
  console.log("=== " + JSON.stringify(l))
  for (const c of r.commands) console.log("  cmd", JSON.stringify(c.words.map(w => w.static ? w.text : `<${w.text}>`)), c.assignments.length ? "assign=" + c.assignments : "", c.wrappedBy ? "via " + c.wrappedBy : "", c.transparentWrapper ? "(transparent)" : "")
  for (const x of r.redirects) console.log("  redir", x.operator, x.fd ?? "", x.kind, x.target ? (x.target.static ? x.target.text : `<${x.target.text}>`) : "")
  for (const u of r.unknown) console.log("  UNKNOWN", u.reason, "|", u.text)
}
