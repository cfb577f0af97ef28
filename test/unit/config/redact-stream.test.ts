import fc from "fast-check"
import { afterEach, describe, expect, it } from "vitest"
import { StreamRedactor } from "../../../server/src/config/redact-stream"
import { dropSecret, holdSecrets } from "../../../server/src/config/secrets"

const KEY = "sk-ant-api03-Zq9vStreamedKeyValue-0123456789abcdef"

afterEach(() => dropSecret("ANTHROPIC_API_KEY"))

function through(pieces: string[]): string {
  const redactor = new StreamRedactor()
  return pieces.map((p) => redactor.push(p)).join("") + redactor.end()
}

describe("StreamRedactor", () => {
  it("redacts a held key split across chunks at every possible cut", () => {
    holdSecrets({ ANTHROPIC_API_KEY: KEY })
    const text = `export ANTHROPIC_API_KEY=${KEY}\ndone\n`
    for (let cut = 1; cut < text.length; cut++) {
      const out = through([text.slice(0, cut), text.slice(cut)])
      expect(out, `cut at ${cut}`).not.toContain(KEY.slice(12))
      expect(out).toContain("[ANTHROPIC_API_KEY redacted]")
      expect(out).toContain("done\n")
    }
  })

  it("never lets a long run of the key through, however the output is chunked (generated cuts)", () => {
    const secret = "Zq9vS3cr3tV4lu3-0123456789abcdefXYZ"
    holdSecrets({ ANTHROPIC_API_KEY: secret })
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.array(fc.nat(80), { maxLength: 8 }), (noise, cuts) => {
        const text = `${noise}${secret}${noise}${secret.slice(0, 10)}\n${secret}`
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
        const pieces = [0, ...points].map((start, i) => text.slice(start, [...points, text.length][i]))
        const out = through(pieces)
        expect(out).not.toContain(secret)
        expect(out).not.toContain(secret.slice(0, 20))
      }),
      { numRuns: 300, seed: 7 },
    )
  })

  it("holds an unfinished Authorization header until its value is complete", () => {
    const redactor = new StreamRedactor()
    const first = redactor.push("curl -H 'Authorization: Bear")
    const second = redactor.push("er tok3n-value-here' https://x\n")
    const out = first + second + redactor.end()
    expect(out).not.toContain("tok3n-value-here")
    expect(out).toContain("Authorization: Bearer [redacted]")
  })

  it("passes ordinary output through at once", () => {
    const redactor = new StreamRedactor()
    expect(redactor.push("line one\nline two\n")).toBe("line one\nline two\n")
  })
})
