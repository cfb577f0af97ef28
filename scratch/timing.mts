import fc from "fast-check"
import { commandLine } from "/work/wt/shell/test/unit/shell/differential/generator"
import { runLines, stubFolder } from "/work/wt/shell/test/unit/shell/differential/run-shells"
const lines = fc.sample(commandLine, { seed: 1, numRuns: 200 })
const s = stubFolder()
for (const [i, line] of lines.entries()) {
  const t = Date.now()
  await runLines([{ line, dialect: "bash" }], s.stubs, s.root, 1)
  const d = Date.now() - t
  if (d > 300) console.log(d, JSON.stringify(line))
}
const t = Date.now(); await runLines(lines.map(line => ({ line, dialect: "bash" as const })), s.stubs, s.root, 4); console.log("batch", Date.now() - t)
s.cleanup()
