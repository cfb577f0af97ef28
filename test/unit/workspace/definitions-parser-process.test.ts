import { readFileSync } from "node:fs"
import { afterAll, describe, expect, it } from "vitest"
import { languageFor } from "../../../server/src/workspace/definitions/languages"
import { processAlive as alive } from "../../support/process-alive"
import {
  definitionsParserPid,
  extractDefinitionsOutOfProcess,
  setDefinitionsParserIdleMs,
  stopDefinitionsParser,
} from "../../../server/src/workspace/definitions/out-of-process"

const ts = languageFor("a.ts")!.spec
const waitUntil = async (check: () => boolean, ms: number) => {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50))
  return check()
}

afterAll(() => stopDefinitionsParser())

describe("definitions parser process", () => {
  it("parses in a child process, not in this one", async () => {
    const defs = await extractDefinitionsOutOfProcess("class A {\n  m() {}\n}\nfunction f() {}\n", ts)
    expect(defs.map((d) => `${d.kind} ${d.name} ${d.startLine}-${d.endLine}`)).toEqual(["class A 1-3", "method m 2-2", "function f 4-4"])
    const pid = definitionsParserPid()
    expect(pid).toBeTypeOf("number")
    expect(pid).not.toBe(process.pid)
  })

  it("gives the child an empty environment, so no API key reaches it", async () => {
    process.env.ANTHROPIC_API_KEY_PROBE = "sk-ant-must-not-leak"
    stopDefinitionsParser()
    await extractDefinitionsOutOfProcess("function g() {}\n", ts)
    const environ = readFileSync(`/proc/${definitionsParserPid()}/environ`, "utf8")
    delete process.env.ANTHROPIC_API_KEY_PROBE
    expect(environ).not.toContain("sk-ant-must-not-leak")
    // Only node's own IPC variables.
    expect(
      environ
        .split("\0")
        .filter(Boolean)
        .every((v) => v.startsWith("NODE_CHANNEL_")),
    ).toBe(true)
  })

  it("exits when idle and starts again on the next call", async () => {
    setDefinitionsParserIdleMs(200)
    await extractDefinitionsOutOfProcess("function h() {}\n", ts)
    const first = definitionsParserPid()!
    expect(await waitUntil(() => !alive(first), 10_000)).toBe(true)
    expect(definitionsParserPid()).toBeUndefined()
    const again = await extractDefinitionsOutOfProcess("function k() {}\n", ts)
    expect(again.map((d) => d.name)).toEqual(["k"])
    expect(definitionsParserPid()).not.toBe(first)
  })

  it("answers concurrent jobs each with its own definitions", async () => {
    const texts = Array.from({ length: 8 }, (_, i) => `function f${i}() {}\n`)
    const results = await Promise.all(texts.map((t) => extractDefinitionsOutOfProcess(t, ts)))
    expect(results.map((r) => r[0]!.name)).toEqual(texts.map((_, i) => `f${i}`))
  })
})
