/**
 * Streaming through the built server (real SDK, fake Messages API, stdio to the bench's client):
 * - latency from the fake writing a text delta to the matching agent/taskUpdate arriving at the editor,
 *   over 1,000 small deltas (goal: median ≤ 2 ms), beside a plain request round trip (agent/listTasks)
 *   on the same server in the same run;
 * - bytes of `toolCall` streaming updates while a 100 KB write_to_file streams, beside what re-sending
 *   the whole arguments on every delta would cost (computed from the same deltas).
 */
import { performance } from "node:perf_hooks"
import { startFakeAnthropic } from "../test/support/fake-anthropic"
import { startServer } from "../test/support/server-harness"
import { tempWorkspace } from "../test/support/temp-workspace"
import { ratio, stats, type BenchTable } from "./lib"

const DELTAS = 1_000
const PIECE = 20 // the fake streams text in 20-character pieces
const GOAL_MEDIAN_MS = 2
const BIG_WRITE = 100 * 1024

const p95 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.95)]!

export default async function bench(): Promise<BenchTable[]> {
  const ws = await tempWorkspace({})
  const api = await startFakeAnthropic()
  const server = await startServer({ workspace: ws.root, apiUrl: api.url })
  const sentAt = new Map<string, number>()
  const latencies: number[] = []
  const roundTrips: number[] = []
  let toolUpdateBytes = 0
  let toolUpdates = 0
  let naiveBytes = 0
  let argumentDeltas = 0
  try {
    // Warm-up task: loads the task layer and the SDK.
    api.push({ toolCalls: [{ name: "attempt_completion", input: { result: "warm" } }] })
    await server.waitForStatus((await server.request("agent/newTask", { text: "warm up" })).taskId, "completed", 30_000)

    // Each piece starts with a unique marker, so each received delta is matched to the time its piece was sent.
    const text = Array.from({ length: DELTAS }, (_, i) => `<${String(i).padStart(5, "0")}>`.padEnd(PIECE, ".")).join("")
    server.onTaskUpdate = ({ update }) => {
      if (update.kind !== "text") return
      const now = performance.now()
      for (const [, marker] of update.delta.matchAll(/<(\d{5})>/g)) {
        const sent = sentAt.get(marker!)
        if (sent !== undefined) latencies.push(now - sent)
      }
    }
    api.push({
      text,
      toolCalls: [{ name: "attempt_completion", input: { result: "streamed" } }],
      delayMsBetweenEvents: 2,
      onEvent: (event: any) => {
        if (event.type === "content_block_delta" && event.delta?.type === "text_delta") {
          const marker = /<(\d{5})>/.exec(event.delta.text)?.[1]
          if (marker) sentAt.set(marker, performance.now())
        }
      },
    })
    const { taskId } = await server.request("agent/newTask", { text: "stream a lot" })
    await server.waitForStatus(taskId, "completed", 60_000)
    server.onTaskUpdate = undefined

    for (let i = 0; i < 50; i++) {
      const start = performance.now()
      await server.request("agent/listTasks", {})
      roundTrips.push(performance.now() - start)
    }

    // A big write streaming its arguments: what the editor receives while it streams.
    const content = "x".repeat(BIG_WRITE)
    const json = JSON.stringify({ path: "big.txt", content })
    for (let at = 15; at < json.length + 15; at += 15)
      naiveBytes += JSON.stringify({ path: "big.txt", content: "" }).length + Math.min(at, json.length)
    argumentDeltas = Math.ceil(json.length / 15)
    server.onTaskUpdate = ({ update }) => {
      if (update.kind === "toolCall" && update.status === "streaming") {
        toolUpdates++
        toolUpdateBytes += JSON.stringify(update).length
      }
    }
    server.handlers.requestApproval = (params: any) => ({ optionId: params.options.find((o: any) => o.kind === "reject_once")?.optionId })
    api.push(
      { toolCalls: [{ name: "write_to_file", input: { path: "big.txt", content } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
    )
    const write = await server.request("agent/newTask", { text: "write a big file" })
    await server.waitForStatus(write.taskId, "completed", 60_000)
    server.onTaskUpdate = undefined
  } finally {
    await server.stop()
    await api.close()
    await ws.cleanup()
  }
  if (latencies.length < DELTAS * 0.9) throw new Error(`only ${latencies.length} of ${DELTAS} deltas were matched`)
  const lat = stats(latencies)
  const rt = stats(roundTrips)
  return [
    {
      title: `Streaming latency: model text delta → agent/taskUpdate at the editor (${latencies.length} deltas, ms)`,
      columns: ["measure", "median", "p95", "vs round trip", `median ≤ ${GOAL_MEDIAN_MS} ms`],
      rows: [
        [
          "fake writes the SSE event → editor receives the update",
          lat.median,
          p95(latencies),
          ratio(lat.median, rt.median),
          lat.median <= GOAL_MEDIAN_MS ? "yes" : "NO",
        ],
        ["baseline: agent/listTasks round trip (same server)", rt.median, p95(roundTrips), "1.00x", ""],
      ],
      note: "The fake streams 1,000 twenty-character text deltas 2 ms apart; each piece carries a marker, timed when the fake writes it and when the bench's client receives the update holding it (one clock, one machine).",
    },
    {
      title: `Partial tool-call updates while a ${BIG_WRITE / 1024} KB write_to_file streams (${argumentDeltas.toLocaleString("en-US")} argument deltas)`,
      columns: ["what the editor receives", "updates", "bytes", "vs whole arguments per delta"],
      rows: [
        ["ours: toolCall updates with status streaming", toolUpdates, toolUpdateBytes, `${(toolUpdateBytes / naiveBytes).toPrecision(2)}x`],
        ["baseline: the whole arguments re-sent on every delta (computed)", argumentDeltas, naiveBytes, "1.00x"],
      ],
      note: "Goal: partial tool-call rendering does not re-send the whole arguments on every delta (total bytes linear in the arguments' size, not quadratic).",
    },
  ]
}
