import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { decideCommand } from "../../../server/src/approval"
import { parseCommandLine } from "../../../server/src/shell"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"

beforeAll(async () => {
  await loadShellParser()
})

/** Shell constructs that wrap a command line: wherever `rm` ends up, the shell would run it. */
const WRAPS: ((inner: string) => string)[] = [
  (x) => `echo $(${x})`,
  (x) => `echo "a $(${x}) b"`,
  (x) => `(${x})`,
  (x) => `{ ${x}; }`,
  (x) => `ls | ${x}`,
  (x) => `${x} | cat`,
  (x) => `ls && ${x}`,
  (x) => `ls || ${x}`,
  (x) => `ls; ${x}`,
  (x) => `ls\n${x}`,
  (x) => `${x} &`,
  (x) => `if ls; then ${x}; fi`,
  (x) => `while ls; do ${x}; done`,
  (x) => `for i in a b; do ${x}; done`,
  (x) => `case a in a) ${x};; esac`,
  (x) => `cat <(${x})`,
  (x) => `echo $((1 + $(${x})))`,
  (x) => `echo \${v:-$(${x})}`,
  (x) => `cat <<EOF\n$(${x})\nEOF`,
  (x) => `ls > $(${x})`,
  (x) => `sudo ${x}`,
  (x) => `timeout 5 ${x}`,
  (x) => `env A=1 ${x}`,
  (x) => `nice -n 1 ${x}`,
  (x) => `sh -c '${x.replaceAll("'", "'\\''")}'`,
  (x) => `eval '${x.replaceAll("'", "'\\''")}'`,
  (x) => `! ${x}`,
]

describe("a command hidden in any nesting of constructs", () => {
  it("is found: the line is never allowed when rm is denied, even with everything else allowed", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: WRAPS.length - 1 }), { minLength: 1, maxLength: 6 }), (path) => {
        const line = path.reduce((inner, i) => WRAPS[i]!(inner), "rm -rf victim")
        expect(decideCommand(line, ["*"], ["rm"]).decision, line).not.toBe("allow")
      }),
      { numRuns: 400 },
    )
  })

  it("never throws on arbitrary text, and what it cannot read is never allowed", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."ab $()`'\"\\;|&<>{}[]#=*!\n\t~%-:"), maxLength: 60 }), (text) => {
        const line = parseCommandLine(text)
        if (line.unknown.length > 0) expect(decideCommand(text, ["*"], []).decision).toBe("ask")
      }),
      { numRuns: 1000 },
    )
  })
})
