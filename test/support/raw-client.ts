import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SERVER_ENTRY } from "./server-harness"

/**
 * The built server driven byte by byte, for wire-level tests: send any bytes (also broken frames), read
 * every message the server writes.
 */
export class RawClient {
  readonly messages: any[] = []
  exitCode: number | null | undefined
  private buffer = Buffer.alloc(0)
  private waiters: (() => void)[] = []

  constructor(readonly proc: ChildProcessWithoutNullStreams) {
    proc.stdout.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk])
      for (;;) {
        const end = this.buffer.indexOf("\r\n\r\n")
        if (end < 0) break
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString())?.[1])
        if (this.buffer.length < end + 4 + length) break
        this.messages.push(JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString()))
        this.buffer = this.buffer.subarray(end + 4 + length)
      }
      this.wake()
    })
    proc.on("exit", (code) => {
      this.exitCode = code
      this.wake()
    })
  }

  static start(env: Record<string, string> = {}): RawClient {
    const home = mkdtempSync(join(tmpdir(), "agent-lsp-raw-"))
    return new RawClient(
      spawn(process.execPath, [SERVER_ENTRY, "--stdio"], {
        env: { ...process.env, XDG_STATE_HOME: join(home, "state"), XDG_CONFIG_HOME: join(home, "config"), ...env },
        stdio: "pipe",
      }),
    )
  }

  sendRaw(bytes: string | Buffer): void {
    this.proc.stdin.write(bytes)
  }

  send(message: object): void {
    const body = JSON.stringify({ jsonrpc: "2.0", ...message })
    this.sendRaw(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  }

  /** Waits for a message matching `match` (e.g. the response with an id). */
  waitFor(match: (message: any) => boolean, timeoutMs = 10_000): Promise<any> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.messages.find(match)
        if (found) {
          clearTimeout(timer)
          this.waiters = this.waiters.filter((w) => w !== check)
          resolve(found)
        }
      }
      const timer = setTimeout(
        () => reject(new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.messages).slice(0, 2000)}`)),
        timeoutMs,
      )
      this.waiters.push(check)
      check()
    })
  }

  response(id: number, timeoutMs?: number): Promise<any> {
    return this.waitFor((m) => m.id === id && (m.result !== undefined || m.error !== undefined), timeoutMs)
  }

  waitForExit(timeoutMs = 10_000): Promise<number | null> {
    return new Promise((resolve, reject) => {
      if (this.exitCode !== undefined) return resolve(this.exitCode)
      const timer = setTimeout(() => reject(new Error(`server did not exit within ${timeoutMs} ms`)), timeoutMs)
      this.proc.once("exit", (code) => {
        clearTimeout(timer)
        resolve(code)
      })
    })
  }

  kill(): void {
    if (this.exitCode === undefined) this.proc.kill("SIGKILL")
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter()
  }
}

export function initializeParams(rootPath: string, processId: number | null = process.pid) {
  return { processId, rootUri: `file://${rootPath}`, workspaceFolders: [{ uri: `file://${rootPath}`, name: "ws" }], capabilities: {} }
}

/** A RawClient that has done the initialize handshake with a workspace folder at `rootPath`. */
export async function initializedRawClient(rootPath: string): Promise<RawClient> {
  const client = RawClient.start()
  client.send({ id: 0, method: "initialize", params: initializeParams(rootPath) })
  await client.response(0)
  client.send({ method: "initialized", params: {} })
  return client
}
