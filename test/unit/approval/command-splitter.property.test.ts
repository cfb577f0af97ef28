import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decideCommand, splitCommand } from "../../../server/src/approval"

const shellChars = fc.constantFrom(..."ab $(){}`'\"\\;&|<>#\n\t!=@*-_./0123456789")
const anyShellText = fc.array(shellChars, { maxLength: 60 }).map((chars) => chars.join(""))
const word = fc.stringMatching(/^[a-z][a-z0-9._-]{0,7}$/)
const simpleCommand = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" "))
const KEYWORDS = new Set(["if", "then", "else", "elif", "do", "while", "until", "time", "fi", "done", "esac", "eval"])
/** A command whose first word is not a shell keyword (those are stripped or skipped on purpose). */
const plainCommand = simpleCommand.filter((command) => !KEYWORDS.has(command.split(" ")[0]!) && !/^(ba|da|z|k|fi)?sh\b/.test(command))
const separator = fc.constantFrom(" && ", " || ", "; ", " | ", " & ", "\n", " |& ")

describe("splitCommand properties", () => {
  it("never throws and ends on any mix of shell syntax, giving trimmed non-empty commands", () => {
    fc.assert(
      fc.property(anyShellText, (text) => {
        const { commands } = splitCommand(text)
        for (const command of commands) expect(command).toBe(command.trim())
        for (const command of commands) expect(command.length).toBeGreaterThan(0)
      }),
      { numRuns: 2000 },
    )
  })

  it("splits simple commands joined by any separator back into exactly those commands", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(plainCommand, separator), { minLength: 1, maxLength: 5 }), (parts) => {
        const line = parts.map(([command, sep], i) => (i < parts.length - 1 ? command + sep : command)).join("")
        expect(splitCommand(line).commands).toEqual(parts.map(([command]) => command))
      }),
      { numRuns: 500 },
    )
  })

  it("denies a denied command however it is attached to allowed ones", () => {
    const attach = fc.constantFrom(
      (a: string) => `${a} && rm -rf /`,
      (a: string) => `${a}; rm -rf /`,
      (a: string) => `${a} | rm -rf /`,
      (a: string) => `${a} $(rm -rf /)`,
      (a: string) => `${a} \`rm -rf /\``,
      (a: string) => `${a} "$(rm -rf /)"`,
      (a: string) => `${a} <(rm -rf /)`,
      (a: string) => `${a}\nrm -rf /`,
      (a: string) => `(${a}; rm -rf /)`,
      (a: string) => `if ${a}; then rm -rf /; fi`,
      (a: string) => `${a} & sudo rm -rf /`,
      (a: string) => `${a} && bash -c 'rm -rf /'`,
    )
    fc.assert(
      fc.property(simpleCommand, attach, (allowed, make) => {
        expect(decideCommand(make(allowed), ["*"], ["rm"]).decision).toBe("deny")
      }),
      { numRuns: 500 },
    )
  })
})
