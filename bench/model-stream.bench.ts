import OpenAI from "openai"
import { OpenAiProvider } from "../server/src/model/openai/openai-provider"
import type { ModelRequest } from "../server/src/model/provider"
import { startFakeOpenAi, type FakeOpenAiReply } from "../test/support/fake-openai"
import { ratio, stats, timeRuns, type BenchTable } from "./lib"

/**
 * Cost of our Chat Completions stream assembly: one reply carrying a large write_to_file call whose
 * arguments arrive in small pieces (as OpenAI streams them), over loopback from the fake, read by our
 * provider (raw chunks → ModelEvents, assembled by index) against the baseline of the official SDK's own
 * assembly (chat.completions.stream() → finalChatCompletion()) reading the same bytes in the same process.
 * Goal: within 1.5x of the SDK's own assembly.
 */
const RUNS = 8
const CONTENT_CHARS = 100_000
const PIECE = 7

const request: ModelRequest = {
  model: "gpt-4o-mini",
  maxTokens: 8192,
  system: "bench",
  messages: [{ role: "user", content: [{ type: "text", text: "write it" }] }],
  tools: [{ name: "write_to_file", description: "Writes.", inputSchema: { type: "object" } }],
}

export default async function modelStreamBench(): Promise<BenchTable[]> {
  const content = "export const x = 1 // line\n".repeat(Math.ceil(CONTENT_CHARS / 27)).slice(0, CONTENT_CHARS)
  const reply: FakeOpenAiReply = {
    text: "Writing.",
    toolCalls: [{ id: "call_big", name: "write_to_file", input: { path: "big.ts", content } }],
    argumentChunkChars: PIECE,
  }
  const api = await startFakeOpenAi()
  const baseURL = `${api.url}/v1`
  const chunks = Math.ceil(JSON.stringify({ path: "big.ts", content }).length / PIECE)
  try {
    const sdk = new OpenAI({ apiKey: "bench", baseURL, maxRetries: 0 })
    const viaSdk = async () => {
      api.push(reply)
      const done = await sdk.chat.completions
        .stream({ model: request.model, messages: [{ role: "user", content: "write it" }], stream_options: { include_usage: true } })
        .finalChatCompletion()
      const call = done.choices[0]!.message.tool_calls?.[0] as { function: { arguments: string } } | undefined
      if (JSON.parse(call!.function.arguments).content !== content) throw new Error("SDK assembled a different call")
    }
    const provider = new OpenAiProvider({ baseUrl: baseURL, env: {} })
    const viaProvider = async () => {
      api.push(reply)
      let json = ""
      for await (const event of provider.stream(request, new AbortController().signal))
        if (event.kind === "toolCallDelta") json += event.delta
      if (JSON.parse(json).content !== content) throw new Error("provider assembled a different call")
    }
    const baseline = stats(await timeRuns(RUNS, viaSdk))
    const ours = stats(await timeRuns(RUNS, viaProvider))
    return [
      {
        title: `One streamed reply: a ${CONTENT_CHARS / 1000} KB write_to_file call in ${PIECE}-character argument pieces (~${chunks} chunks), loopback`,
        columns: ["reader", "median ms", "p90 ms", "vs SDK assembly"],
        rows: [
          ["openai SDK stream() + finalChatCompletion() (baseline)", baseline.median, baseline.p90, "1.00x"],
          ["OpenAiProvider (raw chunks → ModelEvents)", ours.median, ours.p90, ratio(ours.median, baseline.median)],
        ],
        note: `${RUNS} runs each after one warm-up, same fake server and process; both results are checked to equal the sent content. Goal: ≤ 1.5x.`,
      },
    ]
  } finally {
    await api.close()
  }
}
