/**
 * Tokens per request: the first request of a task in each built-in mode (system prompt + tool
 * definitions + first user message), as the built server sends it to the fake Messages API, beside
 * Roo-Code v3.52.1's system prompt and native tool definitions for the same mode and workspace path
 * (bench/fixtures/roo-v3.52.1-first-request.json; its header says how it was produced). Then a three-turn
 * task: is the system prompt byte-identical from turn to turn, and how much of each request is a prefix
 * the prompt cache can serve.
 * Tokens are counted offline with @anthropic-ai/tokenizer (the Claude tokenizer npm package, ranks
 * bundled) on the same texts for both sides; bytes are UTF-8 bytes of the same texts.
 */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { countTokens } from "@anthropic-ai/tokenizer"
import { startFakeAnthropic, type RecordedRequest } from "../test/support/fake-anthropic"
import { startServer } from "../test/support/server-harness"
import { tempWorkspace } from "../test/support/temp-workspace"
import type { BenchTable } from "./lib"

const MODES = ["code", "architect", "ask", "debug", "orchestrator"] as const
const GOAL_RATIO = 0.6
const TOKENIZER = "@anthropic-ai/tokenizer 0.0.4"

interface RooFixture {
  rooVersion: string
  workspace: string
  modes: Record<string, { system: string; tools: unknown[] }>
}

const fixturePath = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "roo-v3.52.1-first-request.json")

/** A small project: what a first-turn listing would show. */
const PROJECT: Record<string, string> = {
  "package.json": '{ "name": "demo", "version": "1.0.0" }\n',
  "README.md": "# demo\n",
  "src/index.ts": "export const main = () => 1\n",
  "src/util.ts": "export function add(a: number, b: number) {\n  return a + b\n}\n",
  "test/util.test.ts": "import { add } from '../src/util'\n",
}

const bytes = (text: string) => Buffer.byteLength(text, "utf8")

interface Parts {
  system: string
  tools: string
  user: string
  toolCount: number
}

/** The three parts of a request body as text, with the temp workspace path replaced by the fixture's. */
function partsOf(body: any, root: string, workspace: string): Parts {
  const swap = (text: string) => text.split(root).join(workspace)
  const system = (body.system as { text: string }[]).map((b) => b.text).join("\n")
  const first = body.messages[0]
  const user =
    typeof first.content === "string"
      ? first.content
      : (first.content as any[]).map((b) => (b.type === "text" ? b.text : JSON.stringify(b))).join("\n")
  return { system: swap(system), tools: swap(JSON.stringify(body.tools ?? [])), user: swap(user), toolCount: (body.tools ?? []).length }
}

/** Text of a request up to and including its last cache breakpoint, in wire order (system, tools, messages). */
function cachedPrefix(body: any): string {
  const messages = body.messages as { role: string; content: any[] }[]
  let lastMessage = -1
  let lastBlock = -1
  messages.forEach(
    (m, i) => Array.isArray(m.content) && m.content.forEach((b, j) => b.cache_control && ((lastMessage = i), (lastBlock = j))),
  )
  const head = JSON.stringify(body.system) + JSON.stringify(body.tools ?? [])
  if (lastMessage < 0) return head
  const kept = messages
    .slice(0, lastMessage + 1)
    .map((m, i) => (i === lastMessage ? { ...m, content: m.content.slice(0, lastBlock + 1) } : m))
  return head + JSON.stringify(kept.map((m) => ({ ...m, content: m.content.map(({ cache_control: _, ...b }) => b) })))
}

function wireText(body: any): string {
  return (
    JSON.stringify(body.system) +
    JSON.stringify(body.tools ?? []) +
    JSON.stringify(body.messages.map((m: any) => ({ ...m, content: m.content.map(({ cache_control: _, ...b }: any) => b) })))
  )
}

export default async function bench(): Promise<BenchTable[]> {
  const roo = JSON.parse(readFileSync(fixturePath, "utf8")) as RooFixture
  const ws = await tempWorkspace(PROJECT)
  const api = await startFakeAnthropic()
  const server = await startServer({ workspace: ws.root, apiUrl: api.url })
  const rows: (string | number)[][] = []
  let cacheTable: BenchTable
  try {
    // An open buffer, as an editor session would have: the first user turn names it.
    server.openDocument(ws.path("src/util.ts"), undefined, "typescript")
    for (const mode of MODES) {
      const before = api.requests.length
      api.push({ toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] })
      const { taskId } = await server.request("agent/newTask", { text: "Add a subtract function to src/util.ts and a test for it.", mode })
      await server.waitForStatus(taskId, "completed", 30_000)
      const ours = partsOf(api.requests[before]!.body, ws.root, roo.workspace)
      const theirs = roo.modes[mode]!
      const rooSystem = theirs.system
      const rooTools = JSON.stringify(theirs.tools)
      const oursTokens = countTokens(ours.system) + countTokens(ours.tools) + countTokens(ours.user)
      const rooTokens = countTokens(rooSystem) + countTokens(rooTools)
      const ratio = oursTokens / rooTokens
      rows.push([
        mode,
        `${bytes(ours.system)} / ${bytes(ours.tools)} (${ours.toolCount}) / ${bytes(ours.user)}`,
        `${countTokens(ours.system)} / ${countTokens(ours.tools)} / ${countTokens(ours.user)}`,
        oursTokens,
        `${bytes(rooSystem)} / ${bytes(rooTools)} (${theirs.tools.length})`,
        `${countTokens(rooSystem)} / ${countTokens(rooTools)}`,
        rooTokens,
        `${ratio.toFixed(2)}x ${ratio <= GOAL_RATIO ? "(met)" : "(NOT met)"}`,
      ])
    }
    cacheTable = await turnByTurn(server, api, ws.root)
  } finally {
    await server.stop()
    await api.close()
    await ws.cleanup()
  }
  return [
    {
      title: `First request of a task per built-in mode: ours vs Roo-Code ${roo.rooVersion} (tokens by ${TOKENIZER})`,
      columns: [
        "mode",
        "ours bytes: system / tools (n) / user",
        "ours tokens: system / tools / user",
        "ours total tokens",
        "Roo bytes: system / tools (n)",
        "Roo tokens: system / tools",
        "Roo total tokens",
        `ratio (goal ≤ ${GOAL_RATIO}x)`,
      ],
      rows,
      note:
        `Ours: the first request body the built server sent to the fake Messages API (tools as sent; temp workspace path replaced by ${roo.workspace}). ` +
        `Roo: bench/fixtures/roo-v3.52.1-first-request.json — Roo's own SYSTEM_PROMPT() and mode-filtered native tools (Anthropic form) for workspace ${roo.workspace}. ` +
        "Our first user message holds the task and the environment details (a bounded workspace listing, the open buffer and the active file). " +
        "Roo's first user message (the task plus its environment_details with a file listing) is NOT counted, ours is: the comparison favours Roo.",
    },
    cacheTable,
  ]
}

/** A three-turn task in code mode: system prompt identity and the cache-servable prefix of each request. */
async function turnByTurn(
  server: Awaited<ReturnType<typeof startServer>>,
  api: Awaited<ReturnType<typeof startFakeAnthropic>>,
  root: string,
): Promise<BenchTable> {
  const before = api.requests.length
  api.push(
    { toolCalls: [{ name: "read_file", input: { path: "src/util.ts" } }] },
    { toolCalls: [{ name: "list_files", input: { path: ".", recursive: true } }] },
    { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
  )
  const { taskId } = await server.request("agent/newTask", { text: "Look around, then finish.", mode: "code" })
  await server.waitForStatus(taskId, "completed", 30_000)
  const requests: RecordedRequest[] = api.requests.slice(before)
  const rows: (string | number)[][] = []
  requests.forEach((request, i) => {
    const body = request.body
    const total = countTokens(wireText(body))
    let cacheable = 0
    let sameSystem = "—"
    if (i > 0) {
      const previous = requests[i - 1]!.body
      const prefix = cachedPrefix(previous)
      // What the cache can serve: the previous request's text up to its last breakpoint, if this one starts with it.
      cacheable = wireText(body).startsWith(prefix.slice(0, -1)) ? countTokens(prefix) : 0
      sameSystem = JSON.stringify(previous.system) === JSON.stringify(body.system) ? "yes" : "NO"
    }
    rows.push([
      `request ${i + 1}`,
      bytes(wireText(body).split(root).join("/workspace/project")),
      total,
      cacheable,
      total > 0 ? `${Math.round((cacheable / total) * 100)}%` : "—",
      sameSystem,
    ])
  })
  return {
    title: "Prompt caching over a three-turn task (code mode)",
    columns: ["request", "bytes", "tokens", "cache-read tokens (est.)", "share", "system prompt identical to previous"],
    rows,
    note:
      "Cache-read tokens are estimated offline: the previous request's system + tools + messages up to its last cache_control breakpoint, counted when this request starts with exactly that text. " +
      "Goal: the system prompt byte-identical from turn to turn (changing context rides in the user turn).",
  }
}
