import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { setTimeout as sleep } from "node:timers/promises"
import { parseCommandLine } from "../../../server/src/shell"
import { loadShellParser, setShellParserIdleMs, shellParserRunning, stopShellParser } from "../../../server/src/workspace/shell-grammars"

/** Polls until `check` holds or `ms` pass; the thread's end is asynchronous. */
async function eventually(check: () => boolean, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) return false
    await sleep(20)
  }
  return true
}

describe("the shell parser thread", () => {
  beforeAll(() => setShellParserIdleMs(300))
  afterAll(() => {
    setShellParserIdleMs(5_000)
    stopShellParser()
  })

  it("reads a command line synchronously once loaded", async () => {
    await loadShellParser()
    const line = parseCommandLine("npm test 2>&1 | tee log.txt && rm -rf build")
    expect(line.commands.map((c) => c.words[0]?.text)).toEqual(["npm", "tee", "rm"])
    expect(line.unknown).toEqual([])
    expect(shellParserRunning()).toBe(true)
  })

  it("ends after its idle time", async () => {
    await loadShellParser()
    parseCommandLine("ls")
    expect(await eventually(() => !shellParserRunning())).toBe(true)
  })

  it("starts again for a line read after it ended, and still answers that line", async () => {
    await loadShellParser()
    stopShellParser()
    expect(shellParserRunning()).toBe(false)
    const line = parseCommandLine("echo $(whoami) > out.txt")
    expect(line.redirects.map((r) => r.target?.text)).toEqual(["out.txt"])
    expect(line.commands.map((c) => c.words[0]?.text).sort()).toEqual(["echo", "whoami"])
    expect(shellParserRunning()).toBe(true)
  })

  it("gives the same answer as before it was stopped", async () => {
    await loadShellParser()
    const text = `for f in $(git ls-files '*.ts'); do wc -l "$f"; done; sudo -u root env A=1 ls`
    const before = parseCommandLine(text)
    stopShellParser()
    expect(parseCommandLine(text)).toEqual(before)
  })
})
