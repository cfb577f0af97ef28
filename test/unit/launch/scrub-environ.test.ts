import { describe, expect, it } from "vitest"
import { execFileSync } from "node:child_process"
import { join } from "node:path"

const root = join(__dirname, "../../..")
const KEY = "sk-ant-scrub-test-0123456789"

/**
 * A real Node process started with a key in its environment runs the launcher's first step, then reports
 * what /proc shows of its own environment and what a command it starts sees of its parent's.
 */
function runWithKey(script: string): { self: string; parentSeenByCommand: string; held: string; env: string } {
  const program = `
    import { relaunchWithoutSecrets } from ${JSON.stringify(join(root, "server/src/launch/relaunch.ts"))}
    import { getSecret } from ${JSON.stringify(join(root, "server/src/config/secrets.ts"))}
    import { readFileSync } from "node:fs"
    import { execFileSync } from "node:child_process"
    ${script}
    const parentSeenByCommand = execFileSync("/bin/sh", ["-c", "cat /proc/$PPID/environ"], { env: {} }).toString("latin1")
    process.stdout.write(JSON.stringify({
      self: readFileSync("/proc/self/environ", "latin1"),
      parentSeenByCommand,
      held: getSecret("ANTHROPIC_API_KEY") ?? "",
      env: process.env.ANTHROPIC_API_KEY ?? "",
    }))`
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", program], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: KEY, AGENT_LSP_SETTINGS_FILE: "/nonexistent" },
  })
  return JSON.parse(out.toString("utf8"))
}

describe.runIf(process.platform === "linux")("blanking the key in the server's own start-up environment", () => {
  it("leaves no key in /proc/<server>/environ, nor for a command reading /proc/$PPID/environ, without a second process", () => {
    const seen = runWithKey(`if (relaunchWithoutSecrets() !== "server") throw new Error("relaunched")`)
    expect(seen.self).toContain("PATH=")
    expect(seen.self).not.toContain("ANTHROPIC_API_KEY")
    expect(seen.self).not.toContain(KEY)
    expect(seen.parentSeenByCommand).not.toContain(KEY)
    // The server still holds the key for its model requests, and only there.
    expect(seen.held).toBe(KEY)
    expect(seen.env).toBe("")
  })

  it("is needed: without it the start-up environment still shows the key after process.env forgets it", () => {
    const seen = runWithKey(`delete process.env.ANTHROPIC_API_KEY`)
    expect(seen.self).toContain(KEY)
    expect(seen.parentSeenByCommand).toContain(KEY)
  })
})
