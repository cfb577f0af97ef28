/**
 * Helpers for benches that time a tool beside the program it wraps: run a program and read its output,
 * alternate two measurements so machine noise hits both alike, and call a tool the way the pipeline does.
 */
import { spawn } from "node:child_process"
import type { ToolDefinition } from "../../server/src/tools/tool"
import type { makeToolContext } from "../../test/support/tool-context"
import { timeRuns } from "../lib"

/** Runs a program to completion, reading (and dropping) all of its stdout, like a consumer would. */
export function drain(command: string, args: string[], cwd?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "ignore"] })
    let bytes = 0
    child.stdout.on("data", (chunk: Buffer) => (bytes += chunk.length))
    child.on("error", reject)
    child.on("close", () => resolve(bytes))
  })
}

/** Times `a` and `b` alternately (after one warm-up each), so machine noise hits both alike. */
export async function interleaved(runs: number, a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number[], number[]]> {
  await a()
  await b()
  const [as, bs]: [number[], number[]] = [[], []]
  for (let i = 0; i < runs; i++) {
    as.push((await timeRuns(1, a, 0))[0]!)
    bs.push((await timeRuns(1, b, 0))[0]!)
  }
  return [as, bs]
}

/** Calls a tool as the pipeline does; resolves with the length of its text answer (throws on a tool error). */
export async function callTool(tool: ToolDefinition, params: unknown, ctx: ReturnType<typeof makeToolContext>): Promise<number> {
  const outcome = await tool.prepare(tool.params.parse(params), ctx)
  const result = "result" in outcome ? outcome.result : await outcome.run()
  if (result.isError) throw new Error(JSON.stringify(result.content))
  return result.content.reduce((n, c) => n + (c.type === "text" ? c.text.length : 0), 0)
}
