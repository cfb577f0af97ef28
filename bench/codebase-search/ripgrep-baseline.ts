/**
 * The keyword baseline: what an agent without an index does — ripgrep for the question's content words
 * (case-insensitive, any of them), ranking matching lines by how many distinct words they hold (ties in
 * ripgrep's path order). A result is one line.
 */
import { spawn } from "node:child_process"

const STOP = new Set(
  "the a an and or of to in on for with by from as is are be this that these those it its into when which what will can not has have given used uses using".split(
    " ",
  ),
)

/** The question's content words: at least three letters, no stop words, regex-escaped. */
export function keywords(query: string): string[] {
  const words = query.toLowerCase().match(/[a-z0-9_]+/g) ?? []
  return [...new Set(words.filter((w) => w.length >= 3 && !STOP.has(w)))]
}

export interface LineHit {
  path: string
  line: number
}

export async function ripgrepSearch(rg: string, root: string, query: string, limit: number): Promise<LineHit[]> {
  const words = keywords(query)
  if (words.length === 0) return []
  const output = await run(rg, ["-n", "-i", "--no-heading", "--sort", "path", ...words.flatMap((w) => ["-e", w]), "."], root)
  const scored: { hit: LineHit; score: number; order: number }[] = []
  output.split("\n").forEach((row, order) => {
    const match = row.match(/^(?:\.\/)?(.+?):(\d+):(.*)$/)
    if (!match) return
    const text = match[3]!.toLowerCase()
    const score = words.filter((w) => text.includes(w)).length
    scored.push({ hit: { path: match[1]!, line: Number(match[2]) }, score, order })
  })
  scored.sort((a, b) => b.score - a.score || a.order - b.order)
  return scored.slice(0, limit).map((s) => s.hit)
}

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "ignore"] })
    const chunks: Buffer[] = []
    child.stdout.on("data", (c: Buffer) => chunks.push(c))
    child.on("error", reject)
    child.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")))
  })
}
