import { describe, expect, it } from "vitest"
import { listCommands } from "../../../server/src/core/skills-requests"
import { expandMcpPrompt, mcpPromptCommands, promptArguments } from "../../../server/src/mcp/prompt-commands"
import { useEverythingHub } from "./everything"

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
  const everything = useEverythingHub()

  it("offers each prompt as /mcp.<server>.<prompt> with its arguments as the hint, in agent/listCommands", async () => {
    const args = mcpPromptCommands(everything.hub).find((c) => c.name === "mcp.everything.args-prompt")
    expect(args).toMatchObject({ argumentHint: "<city> [state]", server: "everything", prompt: "args-prompt" })
    expect(args!.description).toContain('MCP server "everything"')
    const { commands } = await listCommands([everything.ws.root], () => {}, everything.hub)
    expect(commands).toContainEqual(expect.objectContaining({ name: "mcp.everything.simple-prompt", source: "mcp" }))
    expect(commands).toContainEqual(expect.objectContaining({ name: "init", source: "builtin" }))
  })

  it("runs a prompt with prompts/get and uses its messages as the user's text", async () => {
    expect(await expandMcpPrompt("/mcp.everything.args-prompt Paris France", everything.hub)).toEqual({
      text: "What's weather in Paris, France?",
    })
  })

  it("refuses an unknown prompt or a missing required argument with what to type instead", async () => {
    const unknown = await expandMcpPrompt("/mcp.everything.nope", everything.hub)
    expect(unknown).toMatchObject({ error: expect.stringContaining("/mcp.everything.args-prompt") })
    expect(await expandMcpPrompt("/mcp.everything.args-prompt", everything.hub)).toEqual({
      error: "/mcp.everything.args-prompt needs <city>. Usage: /mcp.everything.args-prompt <city> [state]",
    })
  })

  it("leaves text that is not an MCP prompt command to the other slash commands", async () => {
    expect(await expandMcpPrompt("/init", everything.hub)).toBeUndefined()
    expect(await expandMcpPrompt("please run /mcp.everything.simple-prompt", everything.hub)).toBeUndefined()
  })
})
