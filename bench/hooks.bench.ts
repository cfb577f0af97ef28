import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { defaultSettings, type Settings } from "../server/src/config/schema"
import { ModeRegistry } from "../server/src/modes"
import { createPipelineWith } from "../server/src/pipeline/create-pipeline"
import { newTurnState } from "../server/src/pipeline/types"
import { makeToolContext } from "../test/support/tool-context"
import { ratio, stats, timeRuns, type BenchTable } from "./lib"
import { noop } from "./pipeline.bench"

/**
 * Time a PreToolUse hook adds to one tool call (issue 23): the same pipeline and no-op tool, (a) with no hooks
 * configured (baseline), (b) with one no-op hook (`true`) unsandboxed, (c) the same hook in the OS sandbox
 * (bubblewrap, agent.sandbox.mode "required"), each in this process run. Goals: (a) unchanged against
 * bench/pipeline (µs), (b)/(c) ≤ 20 ms added per call, spawn included.
 */
const RUNS = 60

function pipelineWith(settings: Settings, root: string) {
  const pipeline = createPipelineWith({
    aliases: {},
    settings: () => settings,
    modes: ModeRegistry.builtinOnly(),
    availability: () => ({ settings, workspaceFolders: [root], mcpServerNames: [], hasCodebaseIndex: false, hasBrowser: false }),
    tools: [noop],
  })
  const ctx = { ...makeToolContext(root, { settings }), emit: () => {} }
  let i = 0
  return async () => {
    i++
    const call = { id: `c${i}`, name: "read_file", argumentsJson: `{"path":"a.ts","n":${i}}` }
    const outcome = await pipeline.run(call, newTurnState(), ctx)
    if (outcome.status !== "done") throw new Error(`unexpected ${outcome.status}`)
  }
}

export default async function hooksBench(): Promise<BenchTable[]> {
  const root = mkdtempSync(join(tmpdir(), "hooks-bench-"))
  const none = defaultSettings()
  const withHook = (mode: "off" | "required") => {
    const settings = defaultSettings()
    settings.sandbox.mode = mode
    settings.hooks = { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "true" }] }] }
    return settings
  }
  const base = stats(await timeRuns(RUNS * 20, pipelineWith(none, root), 200))
  const plain = stats(await timeRuns(RUNS, pipelineWith(withHook("off"), root), 5))
  const boxed = stats(await timeRuns(RUNS, pipelineWith(withHook("required"), root), 5))
  const row = (name: string, s: { median: number; p90: number }) => [
    name,
    s.median,
    s.p90,
    s.median - base.median,
    ratio(s.median, base.median),
  ]
  return [
    {
      title: "PreToolUse hook: added time per tool call (no-op tool, no-op hook `true`)",
      columns: ["path", "median ms/call", "p90 ms/call", "added ms (median)", "ratio"],
      rows: [
        row("baseline: pipeline, no hooks configured", base),
        row("one hook, agent.sandbox.mode off (sh -c true)", plain),
        row("one hook in the OS sandbox (bwrap + sh -c true)", boxed),
      ],
      note: `Medians of ${RUNS} calls (baseline ${RUNS * 20}) in this process run. Goal: ≤ 20 ms added with one hook, spawn included; no hooks: the pipeline's own µs (see bench/pipeline).`,
    },
  ]
}
