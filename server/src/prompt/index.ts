export { buildSystemPrompt, estimateTokens } from "./builder"
export { loadCustomInstructions } from "./custom-instructions"
export type { CustomInstructions, PromptContext, SystemInfo } from "./sections"
