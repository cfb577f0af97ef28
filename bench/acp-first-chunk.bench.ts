/**
 * ACP latency: the time from sending `session/prompt` to the first `agent_message_chunk` arriving at the
 * client, against the fake Messages API, for the built `agent-lsp --acp` beside the ACP SDK's example
 * agent (bench/baselines/acp-example-agent.ts: the same SDKs, the same fake, nothing else), measured in
 * the same run, interleaved round-robin so machine noise hits both alike. Two cases per agent: the first
 * prompt of a fresh session (what a user waits for after opening a thread) and a follow-up prompt in a
 * session that already has one turn. Goal: ≤ 1.2x the example agent.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Readable, Writable } from "node:stream"
import { fileURLToPath } from "node:url"
import * as acp from "@agentclientprotocol/sdk"
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from "../test/support/fake-anthropic"
import { ratio, stats, type BenchTable } from "./lib"

const RUNS = Number(process.env.AGENT_LSP_BENCH_RUNS) || 20
const GOAL_RATIO = 1.2
const WAIT_MS = 30_000
const ours = fileURLToPath(new URL("../dist/agent-lsp.mjs", import.meta.url))
const baseline = fileURLToPath(new URL("./baselines/acp-example-agent.ts", import.meta.url))

interface Agent {
  name: string
  argv: string[]
  /** What the fake model answers to one prompt (agent-lsp ends a turn with attempt_completion). */
  reply: FakeReply
}

/** One agent process with an SDK client on its stdio that notes when each session's first chunk arrives. */
class Connected {
  private firstChunk = new Map<string, (at: number) => void>()
  readonly connection: acp.ClientConnection
  stderr = ""

  constructor(
    readonly proc: ChildProcessWithoutNullStreams,
    readonly api: FakeAnthropic,
  ) {
    proc.stderr.on("data", (d) => (this.stderr = (this.stderr + d.toString()).slice(-4000)))
    const app = acp
      .client({ name: "agent-lsp-bench" })
      .onRequest("session/request_permission", () => ({ outcome: { outcome: "cancelled" as const } }))
      .onNotification("session/update", ({ params }) => {
        if (params.update.sessionUpdate !== "agent_message_chunk") return
        const done = this.firstChunk.get(params.sessionId)
        this.firstChunk.delete(params.sessionId)
        done?.(performance.now())
      })
    this.connection = app.connect(
      acp.ndJsonStream(Writable.toWeb(proc.stdin) as WritableStream<Uint8Array>, Readable.toWeb(proc.stdout) as ReadableStream<Uint8Array>),
    )
  }

  /**
   * Milliseconds from sending the prompt to its first agent_message_chunk, and the part of it before the
   * model request reached the fake; waits for the turn to end.
   */
  async promptLatency(sessionId: string, reply: FakeReply): Promise<{ total: number; beforeModel: number }> {
    let requested = 0
    this.api.push(() => {
      requested = performance.now()
      return reply
    })
    const chunk = new Promise<number>((resolve) => this.firstChunk.set(sessionId, resolve))
    const sent = performance.now()
    const turn = this.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Say hello." }] })
    const at = await within(chunk, `no agent_message_chunk within ${WAIT_MS} ms`)
    const { stopReason } = await within(turn, `the turn did not end within ${WAIT_MS} ms`)
    if (stopReason !== "end_turn") throw new Error(`the turn ended with ${stopReason}`)
    return { total: at - sent, beforeModel: requested - sent }
  }

  async close(): Promise<void> {
    this.connection.close()
    this.proc.stdin.end()
    await Promise.race([new Promise((r) => this.proc.once("exit", r)), new Promise((r) => setTimeout(r, 3000))])
    this.proc.kill("SIGKILL")
  }
}

function within<T>(promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), WAIT_MS)))
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

async function start(agent: Agent, home: string, workspace: string): Promise<Connected> {
  const api = await startFakeAnthropic()
  const env = {
    ...process.env,
    XDG_STATE_HOME: join(home, agent.name, "state"),
    XDG_CONFIG_HOME: join(home, agent.name, "config"),
    ANTHROPIC_API_KEY: "sk-ant-bench-not-a-real-key-0000",
    ANTHROPIC_BASE_URL: api.url,
  }
  const proc = spawn(process.execPath, agent.argv, { cwd: workspace, env, stdio: "pipe" })
  const connected = new Connected(proc, api)
  await within(
    connected.connection.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} }),
    `${agent.name} did not answer initialize`,
  ).catch((error) => {
    throw new Error(`${error.message}; stderr: ${connected.stderr}`)
  })
  return connected
}

export default async function bench(): Promise<BenchTable[]> {
  if (!existsSync(ours)) throw new Error(`${ours} is not built (npm run build)`)
  const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-bench-acp-")))
  const workspace = join(home, "workspace")
  mkdirSync(workspace)
  writeFileSync(join(workspace, "README.md"), "# bench\n")
  const text = "Hello from the fake model."
  const agents: Agent[] = [
    { name: "ACP SDK example agent (baseline)", argv: ["--import", import.meta.resolve("tsx"), baseline], reply: { text } },
    {
      name: "agent-lsp --acp",
      argv: [ours, "--acp"],
      reply: { text, toolCalls: [{ name: "attempt_completion", input: { result: "Said hello." } }] },
    },
  ]
  const samples = agents.map(() => ({
    first: [] as number[],
    followUp: [] as number[],
    firstBefore: [] as number[],
    followUpBefore: [] as number[],
  }))
  const running: Connected[] = []
  try {
    for (const agent of agents) running.push(await start(agent, home, workspace))
    // One warm-up session each: loads the task layer and the SDKs, as a user's first thread already did.
    for (const [i, agent] of agents.entries()) {
      const { sessionId } = await running[i]!.connection.agent.request("session/new", { cwd: workspace, mcpServers: [] })
      await running[i]!.promptLatency(sessionId, agent.reply)
    }
    for (let run = 0; run < RUNS; run++) {
      for (const [i, agent] of agents.entries()) {
        const client = running[i]!
        const { sessionId } = await client.connection.agent.request("session/new", { cwd: workspace, mcpServers: [] })
        const first = await client.promptLatency(sessionId, agent.reply)
        const followUp = await client.promptLatency(sessionId, agent.reply)
        samples[i]!.first.push(first.total)
        samples[i]!.firstBefore.push(first.beforeModel)
        samples[i]!.followUp.push(followUp.total)
        samples[i]!.followUpBefore.push(followUp.beforeModel)
      }
    }
  } finally {
    for (const client of running) {
      await client.close()
      await client.api.close()
    }
    rmSync(home, { recursive: true, force: true })
  }
  const base = { first: stats(samples[0]!.first), followUp: stats(samples[0]!.followUp) }
  const rows = agents.flatMap((agent, i) =>
    (["first", "followUp"] as const).map((which) => {
      const s = stats(samples[i]![which])
      return [
        agent.name,
        which === "first" ? "first prompt of a new session" : "follow-up prompt",
        Number(s.median.toFixed(1)),
        Number(s.p90.toFixed(1)),
        Number(stats(samples[i]![`${which}Before`]).median.toFixed(1)),
        ratio(s.median, base[which].median),
      ]
    }),
  )
  return [
    {
      title: `ACP: session/prompt → first agent_message_chunk (${RUNS} runs each, interleaved)`,
      columns: ["agent", "prompt", "median ms", "p90 ms", "of which before the model request (median ms)", "vs baseline (median)"],
      rows,
      note: `Goal: ≤ ${GOAL_RATIO}x the ACP SDK's example agent (bench/baselines/acp-example-agent.ts: the same ACP and Anthropic SDKs and the same loopback fake Messages API, with nothing between the prompt and the model call). Both run as child processes of this bench, on the same Node.`,
    },
  ]
}
