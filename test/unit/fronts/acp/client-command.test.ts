import { describe, expect, it } from "vitest"
import { newOutput } from "../../../../server/src/fronts/acp/client-command"

describe("reading a client terminal's output as it grows", () => {
  it("takes what was appended since the last read", () => {
    expect(newOutput("", "one\n")).toBe("one\n")
    expect(newOutput("one\n", "one\ntwo\n")).toBe("two\n")
    expect(newOutput("one\n", "one\n")).toBe("")
  })

  it("finds the new part after the client dropped the start of the output (its byte limit)", () => {
    const before = `${"a".repeat(300)}END-OF-FIRST-READ`
    const after = `${before.slice(20)}then more`
    expect(newOutput(before, after)).toBe("then more")
  })

  it("marks a gap when even the end of the last read scrolled out", () => {
    expect(newOutput("old output that is gone", "entirely new")).toBe(
      "\n[agent-lsp: output was lost: the editor's terminal dropped it before it was read]\nentirely new",
    )
  })
})
