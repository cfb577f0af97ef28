import { execFileSync } from "node:child_process"
import { readFile, writeFile } from "node:fs/promises"
import { afterEach, describe, expect, it } from "vitest"
import { McpOAuthStore } from "../../../server/src/mcp/oauth-store"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

describe("the MCP OAuth token store, given a file it did not write", () => {
  let ws: TempWorkspace
  afterEach(async () => ws?.cleanup())

  it.each([
    ["broken JSON", "{ not json"],
    ["a JSON array", "[1, 2]"],
    ["a JSON string", '"token"'],
    ["an empty file", ""],
  ])("reads %s as no tokens, and the next sign-in writes a valid file over it", async (_name, text) => {
    ws = await tempWorkspace({ "mcp-oauth.json": text })
    const store = new McpOAuthStore(ws.path("mcp-oauth.json"))
    expect(await store.get("user https://example.test/mcp")).toEqual({})
    await store.update("user https://example.test/mcp", { clientInformation: { client_id: "c1" } })
    const saved = JSON.parse(await readFile(ws.path("mcp-oauth.json"), "utf8"))
    expect(saved["user https://example.test/mcp"]).toMatchObject({ clientInformation: { client_id: "c1" } })
  })

  it("does not block on a FIFO in the file's place: no tokens, at once", async () => {
    ws = await tempWorkspace()
    execFileSync("mkfifo", [ws.path("mcp-oauth.json")])
    const store = new McpOAuthStore(ws.path("mcp-oauth.json"))
    expect(await store.get("user https://example.test/mcp")).toEqual({})
  })

  it("keeps the other servers' entries when one is updated", async () => {
    ws = await tempWorkspace()
    await writeFile(ws.path("mcp-oauth.json"), JSON.stringify({ "user https://a.test/mcp": { tokens: { access_token: "a" } } }))
    const store = new McpOAuthStore(ws.path("mcp-oauth.json"))
    await store.update("user https://b.test/mcp", { tokens: { access_token: "b" } })
    expect(await store.get("user https://a.test/mcp")).toMatchObject({ tokens: { access_token: "a" } })
    expect(await store.get("user https://b.test/mcp")).toMatchObject({ tokens: { access_token: "b" } })
  })
})
