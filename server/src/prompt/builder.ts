import { SECTIONS, type PromptContext } from "./sections"

/** The system prompt: every non-empty section in order, separated by blank lines. Pure. */
export function buildSystemPrompt(ctx: PromptContext): string {
  return `${SECTIONS.map((section) => section(ctx))
    .filter((text) => text !== "")
    .join("\n\n")}\n`
}

/**
 * A rough token count (characters / 4, the usual rule of thumb for English and code with Claude's
 * tokenizer). Used for the condensing threshold between API usage reports and for size figures.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}
