import { spawn } from "node:child_process"

/** What a program started as an LSP server said to `initialize`, and how it ended after shutdown + exit. */
export interface InitializeOutcome {
  serverInfo?: { name: string; version?: string }
  exitCode: number | null
  stderr: string
}

const frame = (message: object) => {
  const body = JSON.stringify(message)
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

/**
 * Starts `command args` the way an editor does (LSP on stdin/stdout, not a terminal), sends `initialize`,
 * then `shutdown` and `exit` once it answered. Killed after `timeoutMs` (the outcome then has no serverInfo).
 */
export function lspInitialize(command: string, args: string[], options: { cwd: string; timeoutMs: number }): Promise<InitializeOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    let serverInfo: InitializeOutcome["serverInfo"]
    child.stderr.on("data", (d) => (stderr += d))
    child.stdout.on("data", (d) => {
      stdout += d
      if (serverInfo) return
      const match = /\{"jsonrpc":"2\.0","id":1,"result":[\s\S]*?(?=Content-Length:|$)/.exec(stdout)
      if (!match) return
      try {
        serverInfo = (JSON.parse(match[0]) as { result: { serverInfo?: InitializeOutcome["serverInfo"] } }).result.serverInfo ?? {
          name: "",
        }
      } catch {
        return // the frame is not complete yet
      }
      child.stdin.write(frame({ jsonrpc: "2.0", id: 2, method: "shutdown" }))
      child.stdin.write(frame({ jsonrpc: "2.0", method: "exit" }))
    })
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs)
    child.on("close", (exitCode) => {
      clearTimeout(timer)
      resolve({ serverInfo, exitCode, stderr })
    })
    child.stdin.write(frame({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } }))
  })
}
