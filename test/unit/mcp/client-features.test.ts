import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fromCallToolResult, fromReadResourceResult } from "../../../server/src/mcp/content"
import { McpHub } from "../../../server/src/mcp/hub"
import { argumentsSchema } from "../../../server/src/mcp/schema"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { EVERYTHING } from "./everything"

const marks = mkdtempSync(join(tmpdir(), "mcp-start-"))
const startedIn = join(marks, "started-in.txt")
const plantedRan = join(marks, "planted-ran")
const plantedModule = `require("fs").writeFileSync(${JSON.stringify(plantedRan)}, "ran")\n`
const tryPlanted = `'${process.execPath}' -e 'try { require("planted-mcp") } catch {}'`
afterAll(() => rmSync(marks, { recursive: true, force: true }))

describe("MCP client features against server-everything", () => {
  let ws: TempWorkspace
  let extra: TempWorkspace
  let hub: McpHub

  beforeAll(async () => {
    // A module a repository ships (or a sandboxed command wrote) where a package runner started in the
    // workspace would pick it up: node -e's require() searches ./node_modules, as npx does.
    ws = await tempWorkspace({ "node_modules/planted-mcp/index.js": plantedModule })
    extra = await tempWorkspace()
    hub = new McpHub({
      workspaceFolder: ws.root,
      workspaceFolders: () => [ws.root, extra.root],
      // Outside the workspace, as ~/.local/state/agent-lsp is (require() looks in every folder above).
      stateDir: join(marks, "state"),
      settings: () => ({
        mcpServers: {
          // No cwd configured: the server starts in a folder of its own (it says where, and tries the planted module).
          everything: {
            command: "sh",
            args: ["-c", `pwd > '${startedIn}'; ${tryPlanted}; exec '${process.execPath}' '${EVERYTHING}' stdio`],
          },
        },
      }),
    })
    await hub.start()
  })
  afterAll(async () => {
    await hub.dispose()
    await ws.cleanup()
    await extra.cleanup()
  })

  it("starts a stdio server without cwd in a folder of its own, where no workspace code is picked up", () => {
    expect(readFileSync(startedIn, "utf8").trim()).toBe(join(marks, "state/mcp-server-start"))
    expect(existsSync(plantedRan)).toBe(false)
  })

  it("starts one in the workspace only when its cwd says so (where the planted module runs: what the default avoids)", async () => {
    const inWorkspace = new McpHub({
      workspaceFolder: ws.root,
      // Outside the workspace, as ~/.local/state/agent-lsp is (require() looks in every folder above).
      stateDir: join(marks, "state"),
      settings: () => ({
        mcpServers: { here: { command: "sh", args: ["-c", `${tryPlanted}; exec '${process.execPath}' '${EVERYTHING}' stdio`], cwd: "." } },
      }),
    })
    try {
      await inWorkspace.start()
      expect(existsSync(plantedRan)).toBe(true)
    } finally {
      await inWorkspace.dispose()
      rmSync(plantedRan, { force: true })
    }
  })

  it("declares roots, so the server offers its roots tool and gets every workspace folder as a root", async () => {
    expect(hub.listTools().map((t) => t.name)).toContain("get-roots-list")
    const result = await hub.callTool("everything", "get-roots-list", {})
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")
    expect(text).toContain(pathToFileURL(ws.root).href)
    expect(text).toContain(pathToFileURL(extra.root).href)
  })

  it("a failed resource read says the resource could not be read, with the SDK's prefix once", async () => {
    const result = await hub.readResource("everything", "demo://no-such-resource/at/all")
    expect(result.isError).toBe(true)
    const text = result.content[0]!.type === "text" ? result.content[0]!.text : ""
    expect(text).toMatch(/could not be read/)
    expect(text).not.toMatch(/arguments against the tool's schema/)
    expect(text.match(/MCP error -?\d+:/g)?.length ?? 0).toBeLessThanOrEqual(1)
  })
})

describe("MCP content and arguments", () => {
  it("decodes text blobs (text/*, JSON) in resource reads and tool results; other blobs stay omitted", () => {
    const json = Buffer.from('{"a": 1}').toString("base64")
    const read = fromReadResourceResult("s", "x://a", { contents: [{ uri: "x://a", mimeType: "application/json", blob: json }] })
    expect(read.content).toEqual([{ type: "text", text: '[resource x://a]\n{"a": 1}' }])
    const tool = fromCallToolResult("s", "t", {
      content: [
        {
          type: "resource",
          resource: { uri: "x://b", mimeType: "text/csv; charset=utf-8", blob: Buffer.from("a,b\n1,2").toString("base64") },
        },
        { type: "resource", resource: { uri: "x://c", mimeType: "application/zip", blob: "UEsDBA==" } },
      ],
    })
    expect(tool.content[0]).toEqual({ type: "text", text: "[resource x://b]\na,b\n1,2" })
    expect(tool.content[1]).toMatchObject({ type: "text", text: expect.stringMatching(/binary resource x:\/\/c .* omitted/) })
  })

  it("sends arguments as the model wrote them: the schema's defaults are not filled in, bad ones still refused", () => {
    const schema = argumentsSchema({
      type: "object",
      properties: { message: { type: "string" }, count: { type: "number", default: 3 } },
      required: ["message"],
    })
    expect(schema.parse({ message: "hi" })).toEqual({ message: "hi" })
    const bad = schema.safeParse({ count: "three" })
    expect(bad.success).toBe(false)
    expect(JSON.stringify(bad.error?.issues.map((i) => i.path))).toContain("message")
  })
})
