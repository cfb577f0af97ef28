import { existsSync } from "node:fs"
import { join } from "node:path"
import { expect } from "vitest"
import type { RecordedRequest } from "./fake-anthropic"
import { ALL_TRIES, type Try, toldFor } from "./permission-tries"

/** What the model is told when each try ran: its own result (the MCP text comes from server-everything itself). */
const RAN_TOLD: Record<Try, RegExp> = {
  edit: /Created a\.txt/,
  command: /Command finished with exit code 0/,
  mcp: /Started simulated, random-leveled logging/,
  subtask: /The subtask in "ask" mode completed with this result:\s+subtask done/,
}

/**
 * Checks one row of a permission-mode matrix: exactly the tries in `ran` had their effect (a.txt written,
 * ran.txt written by the command, the MCP server's answer, the subtask's result) and were told so; every
 * other try was refused ("denied") with a reason matching `refusedTold`.
 */
export function expectRow(workspace: string, requests: RecordedRequest[], ran: Try[], refusedTold: RegExp): void {
  const told = toldFor(requests)
  expect(existsSync(join(workspace, "a.txt")), "a.txt written").toBe(ran.includes("edit"))
  expect(existsSync(join(workspace, "ran.txt")), "ran.txt written").toBe(ran.includes("command"))
  for (const t of ALL_TRIES) {
    const result = told[t]
    expect(result, `a result for ${t}`).toBeDefined()
    if (ran.includes(t)) {
      expect(result!.isError, `${t} ran`).toBe(false)
      expect(result!.text).toMatch(RAN_TOLD[t])
    } else {
      expect(result!.isError, `${t} refused`).toBe(true)
      expect(result!.text).toContain('"denied"')
      expect(result!.text).toMatch(refusedTold)
      expect(result!.text).not.toMatch(RAN_TOLD[t])
    }
  }
}
