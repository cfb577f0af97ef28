import { z } from "zod"
import { defaultSettings } from "../server/src/config/schema"
import { ModeRegistry } from "../server/src/modes"
import { createPipelineWith } from "../server/src/pipeline/create-pipeline"
import { newTurnState } from "../server/src/pipeline/types"
import { defineTool, textResult } from "../server/src/tools/tool"
import { makeToolContext } from "../test/support/tool-context"
import { ratio, stats, type BenchTable } from "./lib"

/**
 * Overhead of one tool call through the pipeline (parse + validate + repetition + auto-approve +
 * dispatch + result formatting + updates) with a no-op read tool, against calling the same tool's
 * prepare() + run() directly. Goal: median < 50 µs per call.
 */
const CALLS = 100_000
const BATCH = 1_000

/** A read tool that does nothing (shared with bench/hooks). */
export const noop = defineTool({
  name: "read_file",
  group: "read",
  params: z.object({ path: z.string(), n: z.number().int() }),
  description: "no-op",
  available: () => true,
  async prepare(params) {
    return {
      preview: { subject: { kind: "read", paths: [params.path] }, title: "read", detail: "" },
      run: async () => textResult("ok"),
    }
  },
})

export default async function pipelineBench(): Promise<BenchTable[]> {
  const settings = defaultSettings()
  const pipeline = createPipelineWith({
    aliases: {},
    settings: () => settings,
    modes: ModeRegistry.builtinOnly(),
    availability: () => ({ settings, workspaceFolders: ["/ws"], mcpServerNames: [], hasCodebaseIndex: false, hasBrowser: false }),
    tools: [noop],
  })
  const ctx = { ...makeToolContext("/ws", { settings }), emit: () => {} }

  // Each call differs in n, so repetition detection runs but never triggers, like a real session.
  const viaPipeline = async (i: number) => {
    const outcome = await pipeline.run(
      { id: `c${i}`, name: "read_file", argumentsJson: `{"path":"src/a.ts","n":${i}}` },
      newTurnState(),
      ctx,
    )
    if (outcome.status !== "done") throw new Error(`unexpected ${outcome.status}: ${JSON.stringify(outcome.result)}`)
  }
  const direct = async (i: number) => {
    const prepared = await noop.prepare({ path: "src/a.ts", n: i }, ctx)
    if ("run" in prepared) await prepared.run()
  }

  const warm = async (fn: (i: number) => Promise<void>) => {
    for (let i = 0; i < 5_000; i++) await fn(i)
  }
  // Wall time per call, and CPU time per call (user + system): on a shared, loaded machine the CPU
  // time is the steadier measure of the work the pipeline adds.
  const perCallMicros = async (fn: (i: number) => Promise<void>) => {
    const wall: number[] = []
    const cpu: number[] = []
    for (let b = 0; b < CALLS / BATCH; b++) {
      const start = process.hrtime.bigint()
      const cpuStart = process.cpuUsage()
      for (let i = 0; i < BATCH; i++) await fn(b * BATCH + i)
      const used = process.cpuUsage(cpuStart)
      wall.push(Number(process.hrtime.bigint() - start) / 1e3 / BATCH)
      cpu.push((used.user + used.system) / BATCH)
    }
    return { ...stats(wall), cpu: stats(cpu).median }
  }

  await warm(direct)
  await warm(viaPipeline)
  const base = await perCallMicros(direct)
  const full = await perCallMicros(viaPipeline)
  return [
    {
      title: "Tool pipeline overhead per call (no-op tool, 100k calls)",
      columns: ["path", "median µs/call", "p90 µs/call", "median CPU µs/call", "ratio (median)"],
      rows: [
        ["baseline: tool.prepare() + run() directly", base.median, base.p90, base.cpu, "1.00x"],
        [
          "pipeline.run (parse, validate, repetition, auto-approve, run, format, updates)",
          full.median,
          full.p90,
          full.cpu,
          ratio(full.median, base.median),
        ],
      ],
      note: `Per-call times are medians over ${CALLS / BATCH} batches of ${BATCH} calls. Goal: pipeline median < 50 µs per call. Overhead = pipeline − baseline.`,
    },
  ]
}
