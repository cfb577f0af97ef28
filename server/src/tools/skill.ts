import { z } from "zod"
import { defineTool, errorResult, textResult } from "./tool"
import { discoverSkills, readSkillBody, skillsForMode, type Skill } from "../skills"

const description = `Load a skill: the full instructions of one of the skills listed under AVAILABLE SKILLS in the system prompt. \
Call it when the user's request matches a skill's description, then follow the instructions it returns. \
Pass args when the skill expects input (for example a file or a topic).`

export const skill = defineTool({
  name: "skill",
  group: "always",
  params: z.object({
    skill: z.string().min(1).describe("Name of the skill, exactly as listed under AVAILABLE SKILLS"),
    args: z.string().optional().describe("Input for the skill, if it takes any"),
  }),
  description,
  available: () => true,
  async prepare({ skill: name, args }, ctx) {
    const available = skillsForMode(await discoverSkills({ workspaceFolders: ctx.workspaceFolders }), ctx.mode)
    const found = available.find((s) => s.name === name)
    if (!found) return { result: errorResult(unknownSkill(name, ctx.mode, available)) }
    const body = await readSkillBody(found)
    if (body === undefined) {
      const why = `The skill "${name}" (${found.location}) could not be read any more; it may have just been removed or broken.`
      return { result: errorResult(`${why} List of skills: ${names(available)}.`) }
    }
    const heading = `Skill "${found.name}" (${found.location}). Follow these instructions:`
    const text = [heading, body, ...(args ? ["", `Arguments: ${args}`] : [])].join("\n")
    return { result: textResult(text, `Loaded skill ${found.name}`) }
  },
})

function unknownSkill(name: string, mode: string, available: readonly Skill[]): string {
  if (available.length === 0)
    return (
      `There is no skill "${name}": no skills are available in ${mode} mode. ` +
      "Skills live in .roo/skills/<name>/SKILL.md (or .agents/skills/, or ~/.roo/skills/). Continue without one."
    )
  return `There is no skill "${name}" in ${mode} mode. The skills available in ${mode} mode: ${names(available)}. Call skill again with one of these names.`
}

function names(skills: readonly Skill[]): string {
  return skills.map((s) => `${s.name} (${s.description})`).join("; ") || "none"
}
