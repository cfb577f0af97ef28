import { spawn } from "node:child_process"
import { describe, expect, it } from "vitest"
import { OutputGate } from "../../../server/src/terminal/output-gate"

/**
 * The output gate (server/src/terminal/output-gate.ts): a program that writes many small pieces is read in
 * few reads, with every byte delivered in order, also what was read while the pipes rested when the
 * program ends; a held gate stops the reads until its last reason is released.
 */

const LINES = 4000
// bash's echo is one write per line: as `rg -c` prints one line per file.
const WRITER = `i=0; while [ $i -lt ${LINES} ]; do echo "line $i"; i=$((i+1)); done`

function runWriter(gated: boolean): Promise<{ reads: number; text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn("/bin/bash", ["--noprofile", "--norc", "-c", WRITER], { stdio: ["ignore", "pipe", "pipe"] })
    const gate = gated ? new OutputGate([child.stdout, child.stderr]) : undefined
    const chunks: Buffer[] = []
    child.stdout.on("data", (chunk: Buffer) => {
      gate?.onRead()
      chunks.push(chunk)
    })
    child.on("error", reject)
    child.on("close", () => resolve({ reads: chunks.length, text: Buffer.concat(chunks).toString(), ms: performance.now() - start }))
  })
}

const expected = Array.from({ length: LINES }, (_, i) => `line ${i}\n`).join("")

describe("the output gate", () => {
  it("reads a burst of small writes in far fewer reads than writes, every byte in order", async () => {
    const gated = await runWriter(true)
    expect(gated.text).toBe(expected)
    // At most a read to open each rest and one to end it: two per REST_MS (1 ms) of the run, and a few more.
    expect(gated.reads).toBeLessThanOrEqual(Math.ceil(gated.ms) * 2 + 10)
    expect(gated.reads).toBeLessThan(LINES / 4)
  })

  it("delivers what it read while resting when the program ends at once", async () => {
    // The writer exits right after its burst: the last chunks are read while the pipes rest.
    for (let i = 0; i < 5; i++) expect((await runWriter(true)).text).toBe(expected)
  })

  it("stops reading while held and reads again once the last reason is released", async () => {
    // The program stays alive meanwhile: Node itself resumes a child's pipes when the child exits.
    const child = spawn("/bin/sh", ["-c", "printf 'one\\n'; sleep 1; printf 'two\\n'"], { stdio: ["ignore", "pipe", "pipe"] })
    const gate = new OutputGate([child.stdout, child.stderr])
    const seen: string[] = []
    child.stdout.on("data", (chunk: Buffer) => seen.push(chunk.toString()))
    gate.hold("disk")
    gate.hold("other")
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    await wait(300)
    expect(seen).toEqual([])
    gate.release("disk")
    await wait(50)
    expect(seen).toEqual([])
    gate.release("other")
    await wait(100)
    expect(seen).toEqual(["one\n"])
    await new Promise((resolve) => child.on("close", resolve))
    expect(seen.join("")).toBe("one\ntwo\n")
  })
})
