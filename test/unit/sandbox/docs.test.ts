import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { sandboxRulesText } from "../../../server/src/sandbox"

describe("docs/sandbox.md", () => {
  it("states the sandbox's rules exactly as the policy data gives them (one source)", () => {
    const doc = readFileSync(new URL("../../../docs/sandbox.md", import.meta.url), "utf8")
    const block = /<!-- sandbox-rules:start -->\n([\s\S]*?)\n<!-- sandbox-rules:end -->/.exec(doc)?.[1]
    expect(block).toBe(sandboxRulesText())
  })
})
