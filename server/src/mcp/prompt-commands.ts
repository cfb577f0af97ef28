import type { McpPort, McpPromptInfo } from "./port"

/** Slash commands for MCP prompts are `/mcp.<server>.<prompt>`. */
export const MCP_COMMAND_PREFIX = "mcp."

/** One MCP prompt as a slash command for the fronts' `/` menus (agent/listCommands, ACP available commands). */
export interface McpPromptCommand {
  name: string
  description: string
  argumentHint?: string
  server: string
  prompt: string
}

/** A name a user can type after `/` (no spaces or slashes): other characters become `_`. */
function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_")
}

/** Every connected server's prompts as `/mcp.<server>.<prompt>` commands, sorted by name. */
export function mcpPromptCommands(mcp: Pick<McpPort, "listPrompts"> | undefined): McpPromptCommand[] {
  if (!mcp) return []
  const commands = mcp.listPrompts().map((p) => ({
    name: `${MCP_COMMAND_PREFIX}${clean(p.server)}.${clean(p.name)}`,
    description: `${p.description?.trim() || `Prompt "${p.name}"`} (MCP server "${p.server}")`,
    ...(p.arguments.length ? { argumentHint: p.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ") } : {}),
    server: p.server,
    prompt: p.name,
  }))
  return commands.sort((a, b) => a.name.localeCompare(b.name))
}

/**
 * The typed arguments as the prompt's named arguments: `name=value` words set that argument, the other
 * words fill the remaining arguments in order, and the last one takes the rest of the text (so a single
 * argument gets everything typed). Missing required arguments are named.
 */
export function promptArguments(prompt: McpPromptInfo, typed: string): { args: Record<string, string> } | { missing: string[] } {
  const args: Record<string, string> = {}
  const known = new Set(prompt.arguments.map((a) => a.name))
  const positional: string[] = []
  for (const word of typed.split(/\s+/).filter(Boolean)) {
    const eq = word.indexOf("=")
    if (eq > 0 && known.has(word.slice(0, eq))) args[word.slice(0, eq)] = word.slice(eq + 1)
    else positional.push(word)
  }
  const open = prompt.arguments.filter((a) => args[a.name] === undefined)
  open.forEach((a, i) => {
    if (i >= positional.length) return
    args[a.name] = i === open.length - 1 ? positional.slice(i).join(" ") : positional[i]!
  })
  const missing = prompt.arguments.filter((a) => a.required && args[a.name] === undefined).map((a) => a.name)
  return missing.length ? { missing } : { args }
}

/**
 * `/mcp.<server>.<prompt> args` → prompts/get's messages as the user's text. Undefined when the text is
 * not such a command (then other slash commands apply); `{ error }` when the prompt is unknown, an
 * argument is missing or the server failed, in words for the user.
 */
export async function expandMcpPrompt(
  text: string,
  mcp: Pick<McpPort, "listPrompts" | "getPrompt"> | undefined,
  signal?: AbortSignal,
): Promise<{ text: string } | { error: string } | undefined> {
  const match = /^\/(mcp\.[^\s/]+)(?:\s+([\s\S]*))?$/.exec(text)
  if (!match) return undefined
  const commands = mcpPromptCommands(mcp)
  const command = commands.find((c) => c.name === match[1])
  if (!command || !mcp) {
    const names = commands.map((c) => `/${c.name}`).join(", ")
    return { error: `There is no MCP prompt /${match[1]}. MCP prompts of connected servers: ${names || "none"}.` }
  }
  const prompt = mcp.listPrompts().find((p) => p.server === command.server && p.name === command.prompt)!
  const parsed = promptArguments(prompt, (match[2] ?? "").trim())
  if ("missing" in parsed)
    return {
      error:
        `/${command.name} needs ${parsed.missing.map((m) => `<${m}>`).join(" ")}. Usage: /${command.name} ${command.argumentHint ?? ""}`.trim(),
    }
  const got = await mcp.getPrompt(command.server, command.prompt, parsed.args, signal)
  return got.ok ? { text: got.text } : { error: got.error }
}
