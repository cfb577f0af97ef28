import type { Settings } from "../config/schema"
import { contextWindowFor, maxOutputFor, ModelError, type ModelEndpoint, type ProviderName } from "../model/index"

/** The model one request goes to, resolved from the settings for the task's current mode. */
export interface ModelChoice extends ModelEndpoint {
  /** The agent.profiles entry in use; undefined = the top-level settings. */
  profile: string | undefined
  provider: ProviderName
  model: string
  maxTokens: number
  contextWindow: number
  idleMs: number
}

/**
 * A task's own model, chosen by the user for that conversation (ACP's model config option): a profile of
 * agent.profiles, or a model name on the top-level provider. It wins over agent.modeProfiles.
 */
export type ModelOverride = { profile: string } | { model: string }

/**
 * The mode's profile (agent.modeProfiles), filled in from the top-level settings where it is silent.
 * Provider-specific keys (model, baseUrl) are inherited only while the profile keeps the top-level
 * provider: an Anthropic model name or URL means nothing to an OpenAI-compatible server.
 * Throws ModelError("config") naming the setting to add when the settings cannot make a request.
 */
export function modelForMode(settings: Settings, mode: string, override?: ModelOverride): ModelChoice {
  if (override && "model" in override) return modelForMode({ ...settings, model: override.model, modeProfiles: {} }, mode)
  const name = override ? override.profile : settings.modeProfiles[mode]
  const profile = name === undefined ? undefined : settings.profiles[name]
  if (name !== undefined && !profile) {
    const known = Object.keys(settings.profiles)
    throw new ModelError(
      `${override ? "The model chosen for this task" : `agent.modeProfiles.${mode}`} names the profile "${name}", which agent.profiles does not define ` +
        `(${known.length ? `it defines: ${known.join(", ")}` : "it defines none"}). Add the profile or remove the mapping.`,
      "config",
      false,
    )
  }
  const provider = profile?.provider ?? settings.provider
  const sameProvider = provider === settings.provider
  const model = profile?.model ?? (sameProvider ? settings.model : undefined)
  if (!model)
    throw new ModelError(
      `The profile "${name}" switches to the ${provider} provider but names no model: set agent.profiles.${name}.model.`,
      "config",
      false,
    )
  const where = name === undefined ? "agent.contextWindow" : `agent.profiles.${name}.contextWindow (or agent.contextWindow)`
  const contextWindow = profile?.contextWindow ?? settings.contextWindow ?? contextWindowFor(model, provider)
  if (contextWindow === undefined)
    throw new ModelError(
      `agent-lsp does not know the context window of the model "${model}", and condensing the conversation depends on it: ` +
        `set ${where} to the context length the server runs the model with (for Ollama, its num_ctx, e.g. 32768).`,
      "config",
      false,
    )
  const requested = profile?.maxTokens ?? settings.maxTokens
  return {
    profile: name,
    provider,
    model,
    baseUrl: profile?.baseUrl ?? (sameProvider ? settings.baseUrl : undefined),
    // A profile's own key variable; never inherited (another server must not get this profile's key).
    ...(profile?.apiKeyEnv ? { apiKeyEnv: profile.apiKeyEnv } : {}),
    // A reply longer than the model can write is refused by some servers: cap at its known limit.
    maxTokens: Math.min(requested, maxOutputFor(model, provider) ?? requested),
    contextWindow,
    idleMs: settings.timeouts.modelIdleSeconds * 1000,
  }
}
