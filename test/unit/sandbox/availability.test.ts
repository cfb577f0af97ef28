import { chmodSync, readFileSync, writeFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resetSandboxStatus, sandboxStatus } from "../../../server/src/sandbox"
import { type TempWorkspace, tempWorkspace } from "../../support/temp-workspace"

/**
 * The sandbox's availability probe (one test sandbox, once per process): a definite answer is remembered,
 * a probe that ran out of time is not (on a machine under heavy load the next command probes again rather
 * than every later command of the session asking). Real processes standing in for bwrap.
 */

let dir: TempWorkspace
beforeAll(async () => {
  dir = await tempWorkspace()
})
afterAll(async () => {
  resetSandboxStatus()
  await dir.cleanup()
})

/** A stand-in for bwrap that counts its runs in `runs` and then does `then`. */
function fakeBwrap(name: string, then: string): { path: string; runs: () => number } {
  const path = dir.path(name)
  const count = dir.path(`${name}.runs`)
  writeFileSync(count, "")
  writeFileSync(path, `#!/bin/sh\necho run >> ${count}\n${then}\n`)
  chmodSync(path, 0o755)
  return { path, runs: () => readFileSync(count, "utf8").split("\n").filter(Boolean).length }
}

describe("the sandbox's availability probe", () => {
  it("remembers a definite answer: bwrap is started once however many commands ask", () => {
    resetSandboxStatus()
    const failing = fakeBwrap("no-userns", "echo 'bwrap: No permissions to creating new namespace' >&2; exit 1")
    const first = sandboxStatus(failing.path, "linux")
    expect(first.available).toBe(false)
    expect(first.reason).toContain("unprivileged_userns_clone")
    expect(sandboxStatus(failing.path, "linux")).toBe(first)
    expect(failing.runs()).toBe(1)
  })

  it("does not remember a probe that ran out of time, and says so", () => {
    resetSandboxStatus()
    const slow = fakeBwrap("slow", "sleep 30")
    const first = sandboxStatus(slow.path, "linux")
    expect(first).toMatchObject({ available: false, timedOut: true })
    expect(first.reason).toContain("the next command tries again")
    expect(sandboxStatus(slow.path, "linux").timedOut).toBe(true)
    expect(slow.runs()).toBe(2)
  }, 30_000)
})
