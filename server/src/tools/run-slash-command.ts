import { z } from "zod"
import { defineTool, errorResult, textResult } from "./tool"
import { discoverCommands, readCommandBody, renderCommand, type SlashCommand } from "../skills"

const description = `Run a slash command: returns the instructions of a command defined in .roo/commands/<name>.md (this workspace), \
~/.roo/commands/ (the user's), or built in (init: write AGENTS.md). Follow the instructions it returns. Use it when the user asks \
for a command by name.`

export const runSlashCommand = defineTool({
  name: "run_slash_command",
  group: "always",
  params: z.object({
    command: z.string().min(1).describe('Name of the command, without the slash, e.g. "init"'),
    args: z.string().optional().describe("Arguments for the command, as the user would type them after its name"),
  }),
  description,
  available: () => true,
  async prepare({ command, args }, ctx) {
    const name = command.replace(/^\//, "")
    const commands = await discoverCommands({ workspaceFolders: ctx.workspaceFolders })
    const found = commands.find((c) => c.name === name)
    const available = `Available commands: ${list(commands)}.`
    if (!found)
      return { result: errorResult(`There is no slash command "${name}". ${available} Call run_slash_command with one of these names.`) }
    const body = await readCommandBody(found)
    if (body === undefined)
      return { result: errorResult(`The command "${name}" (${found.location}) could not be read any more. ${available}`) }
    return { result: textResult(renderCommand(found, body, args?.trim() ?? ""), `Slash command /${found.name}`) }
  },
})

function list(commands: readonly SlashCommand[]): string {
  return commands.map((c) => `/${c.name}${c.description ? ` (${c.description})` : ""}`).join(", ") || "none"
}
