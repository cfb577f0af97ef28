export { splitFrontmatter, type Frontmatter } from "./frontmatter"
export { discoverSkills, skillsForMode, readSkillBody, type Skill, type DiscoveryOptions } from "./skills"
export {
  discoverCommands,
  readCommandBody,
  parseSlashInvocation,
  renderCommand,
  expandSlashCommand,
  type SlashCommand,
  type CommandDiscoveryOptions,
} from "./commands"
export { BUILTIN_COMMANDS } from "./builtin-commands"
export { WatchedCache } from "./watched-cache"
export { realPathInside } from "./markdown-files"
