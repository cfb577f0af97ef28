import { discoverSkills, type Skill, skillsForMode, WatchedCache } from "../skills"
import type { PromptContext } from "./sections"

/** A skill as the prompt lists it: never its body, which the model loads with the skill tool. */
export interface PromptSkill {
  name: string
  description: string
  location: string
}

/** Discovery per set of workspace folders, kept until a folder it read in changes (it runs before every request). */
const discovered = new WatchedCache<Skill[]>()

/** The skills the given mode sees, as the files stand now (read again only after a skill folder changed). */
export async function loadPromptSkills(
  workspaceFolders: readonly string[],
  mode: string,
  log?: (message: string) => void,
): Promise<PromptSkill[]> {
  const all = await discovered.get(JSON.stringify([workspaceFolders, process.env.HOME ?? ""]), (beforeRead) =>
    discoverSkills({ workspaceFolders, log, beforeRead }),
  )
  const skills = skillsForMode(all, mode)
  return skills.map(({ name, description, location }) => ({ name, description, location }))
}

/** AVAILABLE SKILLS: name, description and location of each skill of this mode; empty when there are none. */
export function skillsSection(ctx: PromptContext): string {
  const skills = ctx.skills ?? []
  if (skills.length === 0 || !ctx.toolNames.includes("skill")) return ""
  const lines = [
    "====",
    "",
    "AVAILABLE SKILLS",
    "",
    "Skills are instructions for specific kinds of work. When the task matches a skill's description, load it with the skill tool before you start, and follow it.",
    "",
  ]
  for (const skill of skills) lines.push(`- ${skill.name}: ${skill.description}`, `  Location: ${skill.location}`)
  return lines.join("\n")
}
