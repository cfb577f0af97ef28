export { buildSystemPrompt, estimateTokens } from "./builder"
export { loadCustomInstructions } from "./custom-instructions"
export type { CustomInstructions, PromptContext, SystemInfo } from "./sections"
export { loadPromptSkills, type PromptSkill } from "./skills-section"
