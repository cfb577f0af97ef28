import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { AgentCommands, AgentMethods } from "@agent-lsp/protocol"

// shared/ sits beside the clone (in CI and on developer machines: /work/shared next to /work/main).
const protocolMd = fileURLToPath(new URL("../../../../shared/PROTOCOL.md", import.meta.url))
const present = existsSync(protocolMd)

describe("PROTOCOL.md against protocol/src", () => {
  it.skipIf(!present)(
    `names every agent/* method and agent.* command that protocol/src defines as a constant${present ? "" : " (skipped: ../shared/PROTOCOL.md is not beside this clone)"}`,
    () => {
      const text = readFileSync(protocolMd, "utf8")
      const methods = new Set(text.match(/agent\/[A-Za-z]+/g) ?? [])
      // Commands only as whole code spans (`agent.newTask`), so settings keys like `agent.approval.timeoutSeconds` do not count.
      const commands = new Set([...text.matchAll(/`(agent\.[A-Za-z]+)`/g)].map((m) => m[1]!))
      expect(methods.size).toBeGreaterThan(5)
      expect(commands.size).toBeGreaterThan(5)
      const knownMethods = new Set<string>(Object.values(AgentMethods))
      const knownCommands = new Set<string>(Object.values(AgentCommands))
      expect([...methods].filter((m) => !knownMethods.has(m)), "PROTOCOL.md methods missing from AgentMethods").toEqual([])
      expect([...commands].filter((c) => !knownCommands.has(c)), "PROTOCOL.md commands missing from AgentCommands").toEqual([])
    },
  )
})
