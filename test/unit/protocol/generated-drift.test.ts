import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { renderAll, renderNeovimMethods, renderProtocolJson } from "../../../protocol/scripts/render"
import { AgentCommands, AgentMethods } from "@agent-lsp/protocol"

const root = fileURLToPath(new URL("../../../", import.meta.url))

describe("generated protocol files", () => {
  for (const file of renderAll()) {
    it(`${file.path} matches what protocol/src generates`, async () => {
      const committed = await readFile(join(root, file.path), "utf8").catch(() => "<missing>")
      // Compare with a message that says what to do, rather than a bare diff.
      if (committed !== file.content) {
        expect.fail(`${file.path} is out of date with protocol/src: run \`npm run gen\` and commit the result`)
      }
    })
  }

  it("renders the same bytes twice (deterministic)", () => {
    expect(renderProtocolJson()).toBe(renderProtocolJson())
    expect(renderNeovimMethods()).toBe(renderNeovimMethods())
  })

  it("lists every method with a params schema, and a result schema for requests only", () => {
    const doc = JSON.parse(renderProtocolJson()) as {
      methods: { method: string; kind: string; direction: string; params: unknown; result: unknown }[]
      commands: { command: string }[]
    }
    expect(doc.methods.map((m) => m.method)).toEqual(Object.values(AgentMethods))
    expect(doc.commands.map((c) => c.command)).toEqual(Object.values(AgentCommands))
    for (const m of doc.methods) {
      expect(m.params, m.method).toMatchObject({ type: "object" })
      if (m.kind === "notification") expect(m.result, m.method).toBeNull()
      else expect(m.result, m.method).toBeTypeOf("object")
    }
    const taskUpdate = doc.methods.find((m) => m.method === AgentMethods.taskUpdate)
    expect(taskUpdate).toMatchObject({ kind: "notification", direction: "serverToClient" })
  })

  it("gives the Neovim plugin every method, command and capability key", () => {
    const lua = renderNeovimMethods()
    expect(lua.split("\n")[0]).toMatch(/^-- Generated .*do not edit/)
    for (const [key, method] of Object.entries(AgentMethods)) expect(lua).toContain(`    ${key} = "${method}",`)
    for (const [key, command] of Object.entries(AgentCommands)) expect(lua).toContain(`    ${key} = "${command}",`)
    expect(lua).toContain('    "deferredAnswers",')
  })
})
