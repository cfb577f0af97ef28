/**
 * Cancelling a task during a slow model stream, through the built server (dist/) and the real SDK
 * against the loopback fake Messages API: time from sending agent/cancelTask until the editor gets the
 * `cancelled` status update, and until the fake sees the HTTP stream closed. Goal: under 200 ms. The
 * baseline, measured in the same run on the same server, is a plain request round trip (agent/listTasks).
 */
import { performance } from "node:perf_hooks"
import { startFakeAnthropic } from "../test/support/fake-anthropic"
import { startServer } from "../test/support/server-harness"
import { tempWorkspace } from "../test/support/temp-workspace"
import { ratio, stats, type BenchTable } from "./lib"

const RUNS = 15
const GOAL_MS = 200

export default async function bench(): Promise<BenchTable[]> {
  const ws = await tempWorkspace({})
  const api = await startFakeAnthropic()
  const server = await startServer({ workspace: ws.root, apiUrl: api.url })
  const toCancelled: number[] = []
  const toClosed: number[] = []
  const roundTrip: number[] = []
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      // A reply that streams a few words and then never ends.
      api.push({ text: "Thinking about it slowly, word by word, forever", hangAfterEvents: 4 })
      const { taskId } = await server.request("agent/newTask", { text: `slow task ${i}` })
      await server.waitFor(() => server.updatesOf(taskId).some((u) => u.kind === "text"), 15_000, "the first text")
      const closedBefore = api.closedEarly

      const rt0 = performance.now()
      await server.request("agent/listTasks", {})
      const rt = performance.now() - rt0

      const start = performance.now()
      void server.request("agent/cancelTask", { taskId })
      await server.waitForStatus(taskId, "cancelled", 15_000)
      const cancelled = performance.now() - start
      await server.waitFor(() => api.closedEarly > closedBefore, 15_000, "the stream to close")
      const closed = performance.now() - start
      if (i === 0) continue // warm-up: the first task loads the SDK chunk
      toCancelled.push(cancelled)
      toClosed.push(closed)
      roundTrip.push(rt)
    }
  } finally {
    await server.stop()
    await api.close()
    await ws.cleanup()
  }
  const base = stats(roundTrip)
  const row = (name: string, samples: number[]) => {
    const s = stats(samples)
    return [name, s.median, s.p90, ratio(s.median, base.median), s.p90 < GOAL_MS ? "yes" : "NO"]
  }
  return [
    {
      title: `Cancel during a slow stream (built server, real SDK, fake API; ${RUNS} runs)`,
      columns: ["measure", "median ms", "p90 ms", "vs round trip", `p90 < ${GOAL_MS} ms`],
      rows: [
        row("agent/cancelTask → cancelled update", toCancelled),
        row("agent/cancelTask → fake sees stream closed", toClosed),
        row("baseline: agent/listTasks round trip", roundTrip),
      ],
      note: `Goal: cancelled in under ${GOAL_MS} ms. Baseline: a plain request round trip on the same server in the same run.`,
    },
  ]
}
