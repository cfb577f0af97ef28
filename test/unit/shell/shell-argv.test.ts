import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decideCommand } from "../../../server/src/approval"
import { parseCommandLine } from "../../../server/src/shell"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"

/**
 * A shell's own argv (server/src/shell/wrappers.ts shell()): every combination of options before and after
 * `-c` runs under the real bash and dash first; whenever the hidden `touch` ran, the reading must have
 * reported it or called the line not understood. `-c` is a flag whose command string is the first word after
 * all options (`bash -c -x 'touch m'`), and after `--` without `-c` the first word is a script file.
 */

let dir: string
beforeAll(async () => {
  await loadShellParser()
  dir = mkdtempSync(join(tmpdir(), "shell-argv-"))
})
afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }))

const OPTIONS: string[][] = [[], ["-x"], ["-e"], ["+x"], ["-o", "errexit"], ["-O", "extglob"], ["--"], ["-"], ["-eo", "nounset"], ["-v"]]
const C_FLAGS = ["-c", "-ec", "-ce", "-xc"]
const SHELLS = ["/bin/bash", "/bin/sh"]

/** Runs `line` under bash (which starts the inner shell); true when the mark file was made. */
function marks(line: string, mark: string): boolean {
  rmSync(mark, { force: true })
  try {
    execFileSync("/bin/bash", ["--noprofile", "--norc", "-c", line], { cwd: dir, stdio: "ignore", timeout: 5000 })
  } catch {
    // An option a shell refuses ends it with an error: only the mark counts.
  }
  return existsSync(mark)
}

const quote = (word: string) => `'${word}'`

describe("a shell's options are read as the shell reads them", () => {
  it("reports the command string's commands (or asks) for every option order the shells accept", () => {
    const mark = join(dir, "ran")
    let ran = 0
    const missed: string[] = []
    for (const shell of SHELLS)
      for (const before of OPTIONS)
        for (const flag of C_FLAGS)
          for (const after of OPTIONS) {
            const line = [shell, ...before, flag, ...after, quote(`touch ${mark}`)].join(" ")
            if (!marks(line, mark)) continue
            ran++
            const reading = parseCommandLine(line)
            const seen = reading.commands.some((c) => c.words[0]?.text === "touch")
            if (!seen && reading.unknown.length === 0) missed.push(line)
          }
    // The control: most of these lines do run the hidden command.
    expect(ran).toBeGreaterThan(300)
    expect(missed).toEqual([])
  })

  it("never reads a script file named like an option as a command string", () => {
    writeFileSync(join(dir, "-c"), `touch ${join(dir, "file-ran")}\n`)
    for (const line of ["bash -- -c ls", "bash - -c ls", "sh -- -c ls", "bash -x -- -c ls"]) {
      expect(marks(line, join(dir, "file-ran")), `control: ${line} runs the file -c`).toBe(true)
      const reading = parseCommandLine(line)
      expect(
        reading.commands.map((c) => c.words.map((w) => w.text).join(" ")),
        line,
      ).not.toContain("ls")
    }
  })
})

describe("a command built from input or from the paths find finds is decided at run time", () => {
  it.each([
    ["xargs -I{} sh -c '{}'", "echo 'touch MARK' | xargs -I{} sh -c '{}'"],
    ["xargs -i sh -c '{}'", "echo 'touch MARK' | xargs -i sh -c '{}'"],
    ["xargs --replace=R bash -c R", "echo 'touch MARK' | xargs --replace=R bash -c R"],
    ["the input inside a script", "echo 'x; touch MARK' | xargs -I{} sh -c 'echo {}'"],
    ["find -exec sh -c {}", "find . -name runme -exec sh -c {} \\;"],
    ["find -exec {}", "find . -name runme -exec {} \\;"],
  ])("asks for %s", (_, template) => {
    const mark = join(dir, "built")
    writeFileSync(join(dir, "runme"), `#!/bin/sh\ntouch ${mark}\n`, { mode: 0o755 })
    const line = template.replaceAll("MARK", mark)
    expect(marks(line, mark), "control: the shell runs the hidden touch").toBe(true)
    expect(parseCommandLine(line).unknown.length).toBeGreaterThan(0)
    expect(decideCommand(line, ["*"], ["touch"]).decision).toBe("ask")
  })

  it("still reads a replace string used as data", () => {
    for (const line of ["ls | xargs -I{} cp {} /tmp/x", "find . -name '*.o' -exec rm {} +", "find . -exec sh -c 'echo \"$1\"' _ {} \\;"])
      expect(parseCommandLine(line).unknown, line).toEqual([])
    expect(decideCommand("find . -name '*.o' -exec rm {} +", ["*"], ["rm"]).decision).toBe("deny")
  })
})
