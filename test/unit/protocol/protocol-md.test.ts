import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { AgentCommands, AgentMethods } from "@agent-lsp/protocol"

// protocol/PROTOCOL.md is generated from protocol/src (generated-drift.test.ts checks it is current); this
// checks what it says: every method and command, and a description for every field.
const text = readFileSync(fileURLToPath(new URL("../../../protocol/PROTOCOL.md", import.meta.url)), "utf8")

describe("protocol/PROTOCOL.md", () => {
  it("has a section for every agent/* method and a row for every agent.* command, and names nothing else", () => {
    const sections = [...text.matchAll(/^### `(agent\/[A-Za-z]+)`$/gm)].map((m) => m[1])
    expect(sections.sort()).toEqual(Object.values(AgentMethods).sort())
    // Command ids may be dotted (agent.review.keepAll).
    const commandRows = [...text.matchAll(/^\| `(agent\.[A-Za-z.]+)` \|/gm)].map((m) => m[1])
    expect(commandRows.sort()).toEqual(Object.values(AgentCommands).sort())
  })

  it("describes every field of every params and result table", () => {
    const rows = text.split("\n").filter((line) => /^\| `[^`]+` \| .* \| (yes|no) \|/.test(line))
    expect(rows.length).toBeGreaterThan(50)
    const undocumented = rows.filter((line) => /\| (yes|no) \|\s*\|$/.test(line))
    expect(undocumented).toEqual([])
  })
})
