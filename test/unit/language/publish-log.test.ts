import { describe, expect, it } from "vitest"
import { PublishLog } from "../../../server/src/language/publish-log"

const diag = (message: string) => ({ range: { start: { line: 0, character: 0 } }, message })
const never = new AbortController().signal

describe("waiting for a language server's diagnostics to settle", () => {
  it("takes the last of several quick publishes (a syntax-only set, then the type errors)", async () => {
    const log = new PublishLog()
    const since = log.mark()
    const settled = log.settled("file:///a.ts", since, 200, 5000, never)
    log.record("file:///a.ts", [])
    setTimeout(() => log.record("file:///a.ts", [diag("Type error")]), 50)
    expect(await settled).toEqual([diag("Type error")])
  })

  it("ignores what was published before the change and for other files", async () => {
    const log = new PublishLog()
    log.record("file:///a.ts", [diag("old")])
    const since = log.mark()
    const settled = log.settled("file:///a.ts", since, 50, 5000, never)
    log.record("file:///b.ts", [diag("other file")])
    setTimeout(() => log.record("file:///a.ts", [diag("new")]), 20)
    expect(await settled).toEqual([diag("new")])
  })

  it("gives up after the timeout with nothing when the server published nothing", async () => {
    const log = new PublishLog()
    expect(await log.settled("file:///a.ts", log.mark(), 50, 100, never)).toBeUndefined()
  })

  it("answers at once with nothing when the task is cancelled", async () => {
    const log = new PublishLog()
    const controller = new AbortController()
    const settled = log.settled("file:///a.ts", log.mark(), 50, 60_000, controller.signal)
    controller.abort()
    expect(await settled).toBeUndefined()
  })
})
