import { describe, expect, it } from "vitest"
import { decideCommand } from "../../../server/src/approval"
import { parseCommandLine } from "../../../server/src/shell"

// This file never loads the grammar (vitest runs each test file in its own module graph).
describe("before the shell grammar is loaded", () => {
  it("reads nothing and says so, so an allow-listed command asks rather than passes", () => {
    expect(parseCommandLine("ls")).toEqual({
      commands: [],
      redirects: [],
      unknown: [{ reason: "the shell grammar is not loaded yet", text: "ls" }],
    })
    expect(decideCommand("ls", ["ls"], []).decision).toBe("ask")
  })
})
