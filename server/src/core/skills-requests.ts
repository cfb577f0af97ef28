import type { ParamsOf, ResultOf } from "@agent-lsp/protocol"
import { mcpPromptCommands } from "../mcp/prompt-commands"
import type { McpPort } from "../mcp/port"
import { discoverCommands, discoverSkills, skillsForMode, type Skill } from "../skills"

/**
 * agent/listSkills and agent/listCommands, for every front. Discovery re-reads only files that changed,
 * so each request sees the skills and commands as they are on disk now (no watcher to keep).
 */
export async function listSkills(
  folders: readonly string[],
  params: ParamsOf<"listSkills">,
  warn: (m: string) => void,
): Promise<ResultOf<"listSkills">> {
  const all = await discoverSkills({ workspaceFolders: folders, log: warn })
  const skills = params.mode ? skillsForMode(all, params.mode) : all
  return { skills: skills.map(toWire) }
}

/** The slash commands: files and built-ins, then the prompts of connected MCP servers (`/mcp.<server>.<prompt>`). */
export async function listCommands(
  folders: readonly string[],
  warn: (m: string) => void,
  mcp?: Pick<McpPort, "listPrompts">,
): Promise<ResultOf<"listCommands">> {
  const commands = await discoverCommands({ workspaceFolders: folders, log: warn })
  const prompts = mcpPromptCommands(mcp).map((c) => ({ ...c, source: "mcp" as const }))
  return {
    commands: [...commands, ...prompts].map(({ name, description, argumentHint, source }) => ({
      name,
      source,
      ...(description ? { description } : {}),
      ...(argumentHint ? { argumentHint } : {}),
    })),
  }
}

function toWire(skill: Skill): ResultOf<"listSkills">["skills"][number] {
  const modes = skill.mode !== undefined ? [skill.mode] : skill.modeSlugs
  return { name: skill.name, description: skill.description, path: skill.path, source: skill.source, ...(modes ? { modes } : {}) }
}
