import { execFileSync, spawnSync } from "node:child_process"

/** Whether tmux is installed (Debian: `apt-get install tmux`). */
export const hasTmux = spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0

/**
 * A terminal program in a detached tmux session of a fixed size: what a user sees, read back with
 * `capture-pane`. Used by the terminal-editor tests and docs/screenshots/capture.ts.
 */
export class TmuxScreen {
  constructor(
    readonly session: string,
    readonly columns = 120,
    readonly rows = 34,
  ) {}

  start(command: string, options: { cwd: string; env: Record<string, string> }): void {
    const env = Object.entries(options.env).flatMap(([k, v]) => ["-e", `${k}=${v}`])
    this.tmux(
      "new-session",
      "-d",
      "-s",
      this.session,
      "-x",
      String(this.columns),
      "-y",
      String(this.rows),
      "-c",
      options.cwd,
      ...env,
      command,
    )
  }

  /** The screen as text; with `ansi`, with its colours as escape sequences. */
  text(ansi = false): string {
    return this.tmux("capture-pane", "-p", ...(ansi ? ["-e"] : []), "-t", this.session)
  }

  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", this.session, ...keys)
  }

  async waitFor(text: string | RegExp, timeoutMs = 30_000): Promise<string> {
    const end = Date.now() + timeoutMs
    for (;;) {
      const screen = this.text()
      if (typeof text === "string" ? screen.includes(text) : text.test(screen)) return screen
      if (Date.now() > end) throw new Error(`the screen never showed ${String(text)}:\n${screen}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }

  stop(): void {
    spawnSync("tmux", ["kill-session", "-t", this.session], { stdio: "ignore" })
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", args, { encoding: "utf8" })
  }
}
