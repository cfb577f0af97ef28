import { z } from "zod"

/** The model settings: which API and model the agent talks to, and the named profiles modes can use. */

/** A current Claude Sonnet (the SDK 1.12 examples use it; claude-sonnet-4-5 is deprecated from 2026-11-30). */
export const DEFAULT_MODEL = "claude-sonnet-5-5"

/** The model APIs agent-lsp speaks. */
export const ProviderName = z.enum(["anthropic", "openai"])

/** A named model set-up; each key it leaves out is taken from the top-level settings. */
export const ModelProfile = z.object({
  provider: ProviderName.optional().describe('"anthropic" or "openai"; unset = agent.provider.'),
  model: z.string().min(1).optional().describe("The model name; unset = agent.model (only when the profile keeps agent.provider)."),
  baseUrl: z
    .string()
    .url()
    .optional()
    .describe("Base URL of the API; unset = agent.baseUrl when the profile keeps agent.provider, else the provider's default."),
  maxTokens: z.number().int().positive().optional().describe("Most tokens per reply; unset = agent.maxTokens."),
  contextWindow: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Context window in tokens; unset = agent.contextWindow, else the model's."),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .optional()
    .describe(
      "Name of the environment variable holding this profile's API key (e.g. OPENROUTER_API_KEY), so each server gets its own key; unset = OPENAI_API_KEY or ANTHROPIC_API_KEY by provider. The variable is kept from every process the agent starts. Trusted sources only.",
    ),
})
export type ModelProfile = z.infer<typeof ModelProfile>

/** The top-level model keys of `agent` (spread into SettingsSchema, in this order). */
export const modelSettings = {
  provider: ProviderName.default("anthropic").describe(
    'Which API the agent talks to: "anthropic" (the Messages API) or "openai" (any OpenAI-compatible Chat Completions server: OpenAI, OpenRouter, Ollama, vLLM, LM Studio, llama.cpp). Read only from trusted sources.',
  ),
  model: z
    .string()
    .min(1)
    .default(DEFAULT_MODEL)
    .describe(
      "The model name, passed to the provider as given (e.g. claude-sonnet-5-5, gpt-4.1, openai/gpt-4o, qwen2.5-coder:14b). Read only from trusted sources.",
    ),
  maxTokens: z
    .number()
    .int()
    .positive()
    .default(8192)
    .describe("Most tokens the model may write in one reply (capped at the model's own limit where agent-lsp knows it)."),
  baseUrl: z
    .string()
    .url()
    .optional()
    .describe(
      "Base URL of the provider's API; unset = ANTHROPIC_BASE_URL or OPENAI_BASE_URL, else the official API (e.g. http://localhost:11434/v1 for Ollama). Read only from trusted sources.",
    ),
  contextWindow: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "The model's context window in tokens, for condensing; unset = the model's from agent-lsp's table (required for models it does not know on the openai provider).",
    ),
  profiles: z
    .record(z.string(), ModelProfile)
    .default({})
    .describe(
      "Named model set-ups that modes can use (agent.modeProfiles); a profile inherits the top-level settings it does not set. Read only from trusted sources.",
    ),
  modeProfiles: z
    .record(z.string(), z.string().min(1))
    .default({})
    .describe(
      'Which profile each mode uses, by mode slug (e.g. {"architect": "strong", "code": "cheap"}); other modes use the top-level settings. Read only from trusted sources.',
    ),
}
