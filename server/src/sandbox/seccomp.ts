import { endianness } from "node:os"
import { BLOCKED_SYSCALLS, type BlockedSyscall } from "./policy"

/**
 * The seccomp filter under every sandboxed command (bwrap `--seccomp FD`): a classic BPF program that makes
 * the system calls of policy.ts BLOCKED_SYSCALLS fail with EPERM and lets every other one through. Built
 * from data for each ABI a process on this machine can call the kernel with: a 64-bit process can also make
 * 32-bit calls (`int 0x80` on x86, AArch32 on arm64), with other numbers and another audit arch, and x86's
 * x32 calls share x86_64's arch with bit 30 set. A call under an arch the filter does not know fails too
 * (none exists on these machines). On other machines there is no filter (docs/sandbox.md says so).
 */

interface Abi {
  /** AUDIT_ARCH_* (linux/audit.h): what seccomp_data.arch holds for a call through this ABI. */
  audit: number
  numbers: Record<BlockedSyscall, number>
  /** x86_64's arch value also carries x32 calls: their number has this bit set. */
  x32Bit?: number
}

/** The kernel's numbers (arch/x86/entry/syscalls, include/uapi/asm-generic/unistd.h, arch/arm/tools/syscall.tbl). */
const ABIS_BY_MACHINE: Readonly<Record<string, readonly Abi[]>> = {
  x64: [
    { audit: 0xc000003e, numbers: { add_key: 248, request_key: 249, keyctl: 250 }, x32Bit: 0x40000000 },
    { audit: 0x40000003, numbers: { add_key: 286, request_key: 287, keyctl: 288 } },
  ],
  arm64: [
    { audit: 0xc00000b7, numbers: { add_key: 217, request_key: 218, keyctl: 219 } },
    { audit: 0x40000028, numbers: { add_key: 309, request_key: 310, keyctl: 311 } },
  ],
}

// linux/filter.h, linux/seccomp.h: struct seccomp_data { int nr; __u32 arch; … }.
const LD_W_ABS = 0x20
const JEQ_K = 0x15
const AND_K = 0x54
const RET_K = 0x06
const NR_OFFSET = 0
const ARCH_OFFSET = 4
const RET_ALLOW = 0x7fff0000
const RET_EPERM = 0x00050000 | 1

type Jump = { to: string } | number
interface Insn {
  code: number
  k: number
  jt?: Jump
  jf?: Jump
  label?: string
}

/** The filter for this machine (`process.arch`), as the bytes bwrap reads; undefined where there is none. */
export function seccompFilter(machine: string = process.arch): Buffer | undefined {
  const abis = ABIS_BY_MACHINE[machine]
  if (!abis) return undefined
  const program: Insn[] = [{ code: LD_W_ABS, k: ARCH_OFFSET }]
  abis.forEach((abi, i) => program.push({ code: JEQ_K, k: abi.audit, jt: { to: `abi${i}` } }))
  program.push({ code: RET_K, k: RET_EPERM })
  abis.forEach((abi, i) => {
    program.push({ code: LD_W_ABS, k: NR_OFFSET, label: `abi${i}` })
    if (abi.x32Bit) program.push({ code: AND_K, k: ~abi.x32Bit >>> 0 })
    for (const name of BLOCKED_SYSCALLS) program.push({ code: JEQ_K, k: abi.numbers[name], jt: { to: "deny" } })
    program.push({ code: RET_K, k: RET_ALLOW })
  })
  program.push({ code: RET_K, k: RET_EPERM, label: "deny" })
  return encode(program)
}

/** struct sock_filter { __u16 code; __u8 jt; __u8 jf; __u32 k; } in the machine's byte order; jumps are relative to the next instruction. */
function encode(program: readonly Insn[]): Buffer {
  const at = new Map(program.flatMap((insn, i) => (insn.label ? [[insn.label, i] as const] : [])))
  const offset = (jump: Jump | undefined, from: number): number => {
    if (jump === undefined) return 0
    const target = typeof jump === "number" ? jump : at.get(jump.to)
    const distance = target === undefined ? -1 : target - from - 1
    if (distance < 0 || distance > 255) throw new Error(`seccomp filter: bad jump from ${from}`)
    return distance
  }
  const little = endianness() === "LE"
  const out = Buffer.alloc(program.length * 8)
  program.forEach((insn, i) => {
    const base = i * 8
    if (little) {
      out.writeUInt16LE(insn.code, base)
      out.writeUInt32LE(insn.k >>> 0, base + 4)
    } else {
      out.writeUInt16BE(insn.code, base)
      out.writeUInt32BE(insn.k >>> 0, base + 4)
    }
    out.writeUInt8(offset(insn.jt, i), base + 2)
    out.writeUInt8(offset(insn.jf, i), base + 3)
  })
  return out
}
