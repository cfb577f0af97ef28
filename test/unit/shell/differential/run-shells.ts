import { execFile } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { STUB_NAMES, WRAPPER_PROGRAMS } from "./generator"

/**
 * Runs command lines under the real bash or dash, each in a fresh folder, with a PATH that holds only stub
 * programs (STUB_NAMES, plus bash and sh for `bash -c` and the WRAPPER_PROGRAMS), and returns the argv of every stub each line
 * started. Lines run through a few driver shells at once, one shell process per line (at most 5 s of CPU time
 * each, and 10 s of wall time for the line and everything it started: GNU timeout kills its process group, so a
 * line that recurses through nested substitutions, each process waiting on the next, cannot outlive its turn),
 * in an environment without BASH_ENV/ENV or anything else of the user's.
 */

/** The shells a line is run with, as the agent runs them (terminal/env.ts commandShell). */
export const SHELLS = {
  bash: ["/bin/bash", "--noprofile", "--norc", "-c"],
  sh: ["/bin/sh", "-c"],
} as const

export type Dialect = keyof typeof SHELLS

/** One program a line started: its name and its arguments. */
export interface Invocation {
  name: string
  args: string[]
}

const RECORD = "\x1e"
const UNIT = "\x1f"

const DRIVER = `
stubs="$1"; work="$2"; input="$3"
while IFS= read -r -d '' i && IFS= read -r -d '' shell && IFS= read -r -d '' line; do
  dir="$work/$i"
  if [ "$shell" = sh ]; then set -- /bin/sh -c; else set -- /bin/bash --noprofile --norc -c; fi
  (cd "$dir" && ulimit -t 5 && PATH="$stubs" LOG="$work/$i.log" HOME="$dir" exec /usr/bin/timeout -s KILL 10 "$@" "$line" </dev/null >/dev/null 2>&1)
done < "$input"
true
`

const execFileAsync = promisify(execFile)

/** A folder of stubs; call cleanup() when done. */
export function stubFolder(): { root: string; stubs: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), "shell-differential-"))
  const stubs = join(root, "bin")
  mkdirSync(stubs)
  for (const name of STUB_NAMES) {
    const path = join(stubs, name)
    // $0 tells a started stub from one read by `.`/source (then $0 is the shell's). One log file per process:
    // stubs in a pipeline run at once, and their writes to one file would interleave.
    writeFileSync(path, `#!/bin/sh\n{ printf '%s\\037' "$0" "$@"; printf '\\036'; } >> "$LOG.$$"\n`)
    chmodSync(path, 0o755)
  }
  for (const name of WRAPPER_PROGRAMS) symlinkSync(`/usr/bin/${name}`, join(stubs, name))
  symlinkSync("/bin/bash", join(stubs, "bash"))
  symlinkSync("/bin/dash", join(stubs, "sh"))
  return { root, stubs, cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 5 }) }
}

/** Runs every line under its shell; returns, per line, the stubs it started (in order within each process). */
export async function runLines(
  lines: readonly { line: string; dialect: Dialect }[],
  stubs: string,
  root: string,
  parallel = 2,
): Promise<Invocation[][]> {
  const work = mkdtempSync(join(root, "run-"))
  const chunks: string[][] = Array.from({ length: parallel }, () => [])
  lines.forEach(({ line, dialect }, i) => {
    mkdirSync(join(work, String(i)))
    chunks[i % parallel]!.push(`${i}\0${dialect}\0${line}\0`)
  })
  await Promise.all(
    chunks.map(async (records, n) => {
      const input = join(work, `input-${n}`)
      writeFileSync(input, records.join(""))
      await execFileAsync("/bin/bash", ["--noprofile", "--norc", "-c", DRIVER, "driver", stubs, work, input], {
        // The driver's environment is all a line gets (plus PATH, LOG and HOME): no BASH_ENV, ENV or user settings.
        env: {},
        maxBuffer: 1 << 20,
        timeout: 600_000,
      })
    }),
  )
  const logs = new Map<string, string[]>()
  for (const file of readdirSync(work)) {
    const match = /^(\d+)\.log\./.exec(file)
    if (match) logs.set(match[1]!, [...(logs.get(match[1]!) ?? []), join(work, file)])
  }
  const results = lines.map((_, i) => (logs.get(String(i)) ?? []).flatMap(readLog))
  // A line's background job (`aa &`) may still be writing its log: the folder goes with stubFolder's cleanup then.
  try {
    rmSync(work, { recursive: true, force: true, maxRetries: 3 })
  } catch {}
  return results
}

function readLog(path: string): Invocation[] {
  let text: string
  try {
    text = readFileSync(path, "utf8")
  } catch {
    return []
  }
  return text
    .split(RECORD)
    .filter((r) => r !== "")
    .map((record) => {
      const [zero = "", ...args] = record.split(UNIT).slice(0, -1)
      return { name: zero, args }
    })
}
