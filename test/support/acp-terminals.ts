import { spawn, type ChildProcess } from "node:child_process"
import type * as acp from "@agentclientprotocol/sdk"

interface Terminal {
  proc: ChildProcess
  output: string
  limit: number
  exit?: acp.TerminalExitStatus
  exited: Promise<acp.TerminalExitStatus>
}

/**
 * The terminals of the ACP test client: terminal/create spawns a real child process (its own process group,
 * the client's environment plus what the agent passed), output is kept up to the agent's byte limit (the
 * start dropped, as the schema says), and kill/release end the whole group. `pids` lets a test check that
 * nothing is left running.
 */
export class ClientTerminals {
  private readonly terminals = new Map<string, Terminal>()
  readonly pids: number[] = []
  private next = 1

  create(params: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    const env = { ...process.env, ...Object.fromEntries((params.env ?? []).map((e) => [e.name, e.value])) }
    const proc = spawn(params.command, params.args ?? [], {
      cwd: params.cwd ?? undefined,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    })
    const terminal: Terminal = {
      proc,
      output: "",
      limit: params.outputByteLimit ?? Number.POSITIVE_INFINITY,
      exited: new Promise((resolve) => proc.on("exit", (exitCode, signal) => resolve({ exitCode, signal }))),
    }
    void terminal.exited.then((status) => (terminal.exit = status))
    const onData = (chunk: Buffer) => {
      terminal.output += chunk.toString()
      while (Buffer.byteLength(terminal.output) > terminal.limit) terminal.output = terminal.output.slice(1)
    }
    proc.stdout!.on("data", onData)
    proc.stderr!.on("data", onData)
    if (proc.pid) this.pids.push(proc.pid)
    const terminalId = `term-${this.next++}`
    this.terminals.set(terminalId, terminal)
    return { terminalId }
  }

  output(terminalId: string): acp.TerminalOutputResponse {
    const t = this.get(terminalId)
    return { output: t.output, truncated: false, exitStatus: t.exit ?? null }
  }

  waitForExit(terminalId: string): Promise<acp.WaitForTerminalExitResponse> {
    return this.get(terminalId).exited
  }

  kill(terminalId: string): acp.KillTerminalResponse {
    this.stop(this.get(terminalId))
    return {}
  }

  release(terminalId: string): acp.ReleaseTerminalResponse {
    const t = this.get(terminalId)
    if (!t.exit) this.stop(t)
    this.terminals.delete(terminalId)
    return {}
  }

  private stop(t: Terminal): void {
    try {
      process.kill(-t.proc.pid!, "SIGTERM")
    } catch {
      // Already gone.
    }
  }

  private get(terminalId: string): Terminal {
    const t = this.terminals.get(terminalId)
    if (!t) throw new Error(`unknown terminal ${terminalId}`)
    return t
  }

  /** Kills whatever a test left running. */
  dispose(): void {
    for (const t of this.terminals.values()) if (!t.exit) this.stop(t)
  }
}
