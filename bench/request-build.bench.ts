import { anthropicBody } from "../server/src/model/anthropic/anthropic-request"
import { chatBody, type ChatRequestOptions } from "../server/src/model/openai/openai-request"
import type { ModelContentBlock, ModelMessage, ModelRequest } from "../server/src/model/provider"
import { bodyBytes } from "../server/src/model/request-body"
import { oldChatParams } from "./baseline/old-chat-params"
import { ratio, stats, type BenchTable } from "./lib"

/**
 * Building the request bodies of one task of 200 tool calls (a request before each call and one after the
 * last): the OpenAI-compatible body as it is built now (each block's JSON made once, the body written from
 * pieces into one buffer, server/src/model/openai/openai-request.ts) against the way it was built before
 * (bench/baseline/old-chat-params.ts: the whole conversation converted to objects on every request, then
 * JSON.stringify'd by the SDK and encoded to bytes by fetch), both in this process. The Anthropic body,
 * built the same new way, is shown beside them. Each run starts from a fresh history, so no run reuses
 * the JSON an earlier run made.
 */

const CALLS = 200
const RUNS = 7
const OPTIONS: ChatRequestOptions = { images: true, maxTokensField: "max_tokens" }

export default async function bench(): Promise<BenchTable[]> {
  const oldWay = (request: ModelRequest) => Buffer.from(JSON.stringify(oldChatParams(request, OPTIONS)), "utf8")
  const newWay = (request: ModelRequest) => bodyBytes(chatBody(request, OPTIONS).pieces)
  const anthropic = (request: ModelRequest) => bodyBytes(anthropicBody(request))
  const old = measure(oldWay)
  const ours = measure(newWay)
  const claude = measure(anthropic)
  const sameBytes = newWay(lastRequest(task())).equals(oldWay(lastRequest(task())))
  const row = (name: string, m: Measured) => [
    name,
    m.taskMs,
    ratio(m.taskMs, old.taskMs),
    m.lastMs,
    ratio(m.lastMs, old.lastMs),
    (m.bytes / 1024 / 1024).toFixed(2),
  ]
  return [
    {
      title: `Building the request bodies of a ${CALLS}-call task (median of ${RUNS} runs)`,
      columns: ["body", "all requests, ms", "vs old", "last request, ms", "vs old", "last body, MiB"],
      rows: [
        row("OpenAI, old: toChatParams + JSON.stringify + encode", old),
        row("OpenAI, now: chatBody pieces → one buffer", ours),
        row("Anthropic, now: anthropicBody pieces → one buffer", claude),
      ],
      note:
        `Baseline in the same run: bench/baseline/old-chat-params.ts (the conversion before this change, commit fc50a32), ` +
        `its object JSON.stringify'd and encoded as the SDK and fetch did. "All requests" builds the ${CALLS + 1} bodies of one ` +
        `task in order (the history grows by a call and its result each time); "last request" is the last of them, with the ` +
        `blocks before it already seen by the earlier requests. New body byte-identical to the old one: ${sameBytes ? "yes" : "NO"}.`,
    },
  ]
}

interface Measured {
  taskMs: number
  lastMs: number
  bytes: number
}

/** Builds every request of a fresh task with `build`, RUNS times; medians. */
function measure(build: (request: ModelRequest) => Buffer): Measured {
  const tasks: number[] = []
  const lasts: number[] = []
  let bytes = 0
  for (let run = 0; run < RUNS + 1; run++) {
    const requests = requestsOf(task())
    const start = process.hrtime.bigint()
    let lastStart = start
    for (const request of requests) {
      lastStart = process.hrtime.bigint()
      bytes = build(request).length
    }
    const end = process.hrtime.bigint()
    // The first run warms the code up.
    if (run === 0) continue
    tasks.push(Number(end - start) / 1e6)
    lasts.push(Number(end - lastStart) / 1e6)
  }
  return { taskMs: stats(tasks).median, lastMs: stats(lasts).median, bytes }
}

/** One task's history: a user turn, then per call an assistant turn (text and tool call) and the tool result. */
function task(): { system: string; tools: ModelRequest["tools"]; history: ModelMessage[] } {
  const history: ModelMessage[] = [{ role: "user", content: [{ type: "text", text: `Refactor the parser. ${line(0).repeat(20)}` }] }]
  for (let i = 0; i < CALLS; i++) {
    const id = `call_${i}`
    const kind = i % 4
    const inputs = [{ path: `src/file-${i}.ts` }, { path: "src", recursive: true }, { command: `npm test -- ${i}` }, { regex: `p${i}` }]
    const output = Array.from({ length: [80, 40, 60, 30][kind]! }, (_, n) => line(i * 100 + n)).join("\n")
    history.push({
      role: "assistant",
      content: [
        { type: "text", text: `Step ${i}: checking the ${["file", "listing", "tests", "matches"][kind]} — «ünïcode» "quoted".` },
        { type: "toolUse", id, name: ["read_file", "list_files", "execute_command", "search_files"][kind]!, input: inputs[kind] },
      ],
    })
    const result: ModelContentBlock = {
      type: "toolResult",
      toolUseId: id,
      isError: i % 17 === 0,
      content: [{ type: "text", text: output }],
    }
    history.push({ role: "user", content: [result] })
  }
  const tools = Array.from({ length: 20 }, (_, i) => ({
    name: `tool_${i}`,
    description: `Does thing ${i}. ${line(i).repeat(6)}`,
    inputSchema: {
      type: "object",
      properties: { path: { type: "string", description: "Path relative to the workspace." } },
      required: ["path"],
    },
  }))
  return { system: `You are a coding agent.\n${line(1).repeat(200)}`, tools, history }
}

/** Every request of the task: before each call, and after the last result. */
function requestsOf({ system, tools, history }: ReturnType<typeof task>): ModelRequest[] {
  const requests: ModelRequest[] = []
  for (let n = 1; n <= history.length; n += 2)
    // As forRequest does: new message objects each request, the same blocks.
    requests.push({
      model: "qwen2.5-coder:7b",
      maxTokens: 8192,
      system,
      tools,
      messages: history.slice(0, n).map((m) => ({ role: m.role, content: [...m.content] })),
    })
  return requests
}

function lastRequest(t: ReturnType<typeof task>): ModelRequest {
  return requestsOf(t).at(-1)!
}

function line(n: number): string {
  return `${String(n).padStart(4)} | const value${n} = parse("input ${n}", { strict: true }) // \\ "quoted"\t\n`
}
