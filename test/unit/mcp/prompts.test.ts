import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listCommands } from "../../../server/src/core/skills-requests"
import { McpHub } from "../../../server/src/mcp/hub"
import { expandMcpPrompt, mcpPromptCommands, promptArguments } from "../../../server/src/mcp/prompt-commands"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { everythingServer } from "./everything"

const twoArgs = {
  server: "s",
  name: "p",
  arguments: [
    { name: "city", required: true },
    { name: "state", required: false },
  ],
}

describe("MCP prompt arguments from what the user typed", () => {
  it("fills arguments in order, the last taking the rest, and takes name=value words by name", () => {
    expect(promptArguments(twoArgs, "Paris Ile de France")).toEqual({ args: { city: "Paris", state: "Ile de France" } })
    expect(promptArguments(twoArgs, "state=Texas Austin")).toEqual({ args: { state: "Texas", city: "Austin" } })
    expect(promptArguments({ ...twoArgs, arguments: [{ name: "topic" }] }, "all of this text")).toEqual({
      args: { topic: "all of this text" },
    })
  })

  it("names the required arguments that are missing", () => {
    expect(promptArguments(twoArgs, "")).toEqual({ missing: ["city"] })
    expect(promptArguments(twoArgs, "state=Texas")).toEqual({ missing: ["city"] })
  })
})

describe("MCP prompts as slash commands against server-everything", () => {
  let ws: TempWorkspace
  let hub: McpHub

  beforeAll(async () => {
    ws = await tempWorkspace()
    hub = new McpHub({
      workspaceFolder: ws.root,
      stateDir: ws.path("state"),
      settings: () => ({ mcpServers: { everything: everythingServer(ws.path("pid")) } }),
    })
    await hub.start()
  })
  afterAll(async () => {
    await hub.dispose()
    await ws.cleanup()
  })

  it("offers each prompt as /mcp.<server>.<prompt> with its arguments as the hint, in agent/listCommands", async () => {
    const args = mcpPromptCommands(hub).find((c) => c.name === "mcp.everything.args-prompt")
    expect(args).toMatchObject({ argumentHint: "<city> [state]", server: "everything", prompt: "args-prompt" })
    expect(args!.description).toContain('MCP server "everything"')
    const { commands } = await listCommands([ws.root], () => {}, hub)
    expect(commands).toContainEqual(expect.objectContaining({ name: "mcp.everything.simple-prompt", source: "mcp" }))
    expect(commands).toContainEqual(expect.objectContaining({ name: "init", source: "builtin" }))
  })

  it("runs a prompt with prompts/get and uses its messages as the user's text", async () => {
    expect(await expandMcpPrompt("/mcp.everything.args-prompt Paris France", hub)).toEqual({ text: "What's weather in Paris, France?" })
  })

  it("refuses an unknown prompt or a missing required argument with what to type instead", async () => {
    const unknown = await expandMcpPrompt("/mcp.everything.nope", hub)
    expect(unknown).toMatchObject({ error: expect.stringContaining("/mcp.everything.args-prompt") })
    expect(await expandMcpPrompt("/mcp.everything.args-prompt", hub)).toEqual({
      error: "/mcp.everything.args-prompt needs <city>. Usage: /mcp.everything.args-prompt <city> [state]",
    })
  })

  it("leaves text that is not an MCP prompt command to the other slash commands", async () => {
    expect(await expandMcpPrompt("/init", hub)).toBeUndefined()
    expect(await expandMcpPrompt("please run /mcp.everything.simple-prompt", hub)).toBeUndefined()
  })
})
