import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { applyPatch } from "../../../../server/src/tools/apply-patch"
import { PATCH_SCENARIOS } from "../../../fixtures/apply-patch-scenarios"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { callTool, text } from "./call-tool"

let ws: TempWorkspace
afterEach(() => ws?.cleanup())

/** Every file under the workspace, path → content. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const e of readdirSync(root, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out[relative(root, join(e.parentPath, e.name))] = readFileSync(join(e.parentPath, e.name), "utf8")
  return out
}

describe("apply_patch scenarios after Codex's", () => {
  for (const scenario of PATCH_SCENARIOS) {
    const why = scenario.differs ? ` (differs from Codex on purpose: ${scenario.differs})` : ""
    it(`${scenario.name} [${scenario.source}]${why}`, async () => {
      ws = await tempWorkspace(scenario.input)
      const { result } = await callTool(applyPatch, { patch: scenario.patch }, makeToolContext(ws.root))
      if (scenario.expected) {
        expect(text(result), "the call should succeed").not.toMatch(/^$/)
        expect(result.isError, text(result)).toBe(false)
        expect(tree(ws.root)).toEqual(scenario.expected)
      } else {
        expect(result.isError).toBe(true)
        expect(text(result)).toContain(scenario.refusal!)
        expect(tree(ws.root)).toEqual(scenario.input)
      }
    })
  }
})
