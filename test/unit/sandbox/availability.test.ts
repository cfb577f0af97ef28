import { chmodSync, readFileSync, writeFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resetSandboxStatus, sandboxStatus } from "../../../server/src/sandbox"
import { type TempWorkspace, tempWorkspace } from "../../support/temp-workspace"

/**
 * The sandbox's availability probe (one test sandbox, once per process): a definite answer is remembered, a
 * probe that ran out of time is not. Real processes standing in for bwrap.
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

  it("does not remember a probe that ran out of time: the command goes to bwrap itself (which stops it if it must)", () => {
    // Slow is not broken: on a loaded machine, calling the sandbox unavailable would make every later
    // command of the session ask; the command instead runs in bwrap, which fails closed if it cannot.
    resetSandboxStatus()
    const slow = fakeBwrap("slow", "sleep 30")
    expect(sandboxStatus(slow.path, "linux")).toEqual({ available: true, timedOut: true })
    expect(sandboxStatus(slow.path, "linux").timedOut).toBe(true)
    expect(slow.runs()).toBe(2)
  }, 30_000)
})
