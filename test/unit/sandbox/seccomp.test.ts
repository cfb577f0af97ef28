import { describe, expect, it } from "vitest"
import { seccompFilter } from "../../../server/src/sandbox/seccomp"

/**
 * The seccomp filter's program, run by a small classic-BPF evaluator over every ABI a process of each machine
 * can call the kernel with (the keyrings test runs the real kernel, for this machine's native ABI only).
 */

const ALLOW = 0x7fff0000
const EPERM = 0x00050001

/** Runs the filter (the four instruction kinds it uses; anything else fails the test) on one call. */
function verdict(program: Buffer, arch: number, nr: number): number {
  let acc = 0
  for (let pc = 0; pc * 8 < program.length; pc++) {
    const code = program.readUInt16LE(pc * 8)
    const jt = program.readUInt8(pc * 8 + 2)
    const jf = program.readUInt8(pc * 8 + 3)
    const k = program.readUInt32LE(pc * 8 + 4)
    if (code === 0x20) acc = k === 0 ? nr >>> 0 : k === 4 ? arch >>> 0 : Number.NaN
    else if (code === 0x54) acc = (acc & k) >>> 0
    else if (code === 0x15) pc += acc === k ? jt : jf
    else if (code === 0x06) return k
    else throw new Error(`unexpected instruction ${code.toString(16)} at ${pc}`)
  }
  throw new Error("the filter ran off its end")
}

const X86_64 = 0xc000003e
const I386 = 0x40000003
const AARCH64 = 0xc00000b7
const ARM = 0x40000028
const X32 = 0x40000000

describe("the seccomp filter", () => {
  const x64 = seccompFilter("x64")!
  const arm64 = seccompFilter("arm64")!

  it("refuses add_key, request_key and keyctl through x86_64, x32 and i386 calls on an x86-64 machine", () => {
    for (const nr of [248, 249, 250]) {
      expect(verdict(x64, X86_64, nr)).toBe(EPERM)
      expect(verdict(x64, X86_64, nr | X32)).toBe(EPERM)
    }
    for (const nr of [286, 287, 288]) expect(verdict(x64, I386, nr)).toBe(EPERM)
  })

  it("refuses them through AArch64 and AArch32 calls on an arm64 machine", () => {
    for (const nr of [217, 218, 219]) expect(verdict(arm64, AARCH64, nr)).toBe(EPERM)
    for (const nr of [309, 310, 311]) expect(verdict(arm64, ARM, nr)).toBe(EPERM)
  })

  it("lets every other call through, whatever its number", () => {
    for (let nr = 0; nr < 1024; nr++) {
      if (![248, 249, 250].includes(nr)) expect(verdict(x64, X86_64, nr)).toBe(ALLOW)
      if (![286, 287, 288].includes(nr)) expect(verdict(x64, I386, nr)).toBe(ALLOW)
      if (![217, 218, 219].includes(nr)) expect(verdict(arm64, AARCH64, nr)).toBe(ALLOW)
      if (![309, 310, 311].includes(nr)) expect(verdict(arm64, ARM, nr)).toBe(ALLOW)
    }
    // A call is judged by its own ABI's table: 250 is keyctl for x86_64, another call for i386.
    expect(verdict(x64, I386, 250)).toBe(ALLOW)
  })

  it("refuses every call under an arch the machine's table does not name", () => {
    expect(verdict(x64, AARCH64, 0)).toBe(EPERM)
    expect(verdict(arm64, X86_64, 0)).toBe(EPERM)
  })

  it("has no filter for a machine without a table (the docs say keyrings are not refused there)", () => {
    expect(seccompFilter("riscv64")).toBeUndefined()
  })
})
