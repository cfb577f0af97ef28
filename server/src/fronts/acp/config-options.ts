import { RequestError, type SessionConfigOption, type SessionConfigSelectOption } from "@agentclientprotocol/sdk"
import type { Settings } from "../../config/schema"
import { knownModels } from "../../model/known-models"
import type { ModelOverride } from "../../task/model-for-mode"
import type { PermissionModeName } from "@agent-lsp/protocol"
import { permissionModeOption } from "./permission-mode-option"

/** What a config option reads and changes of one session. */
export interface ConfigTarget {
  settings(): Settings
  /** The session's mode (its task's, else the one its first prompt will use) and the modes to choose from. */
  modes(): Promise<{ currentModeId: string; availableModes: { id: string; name: string; description?: string | null }[] }>
  setMode(modeId: string): Promise<void>
  readonly model: ModelOverride | undefined
  setModel(model: ModelOverride | undefined): Promise<void>
  /** The permission mode in force for the session's task (or its first prompt), and a change of it. */
  permissionMode(): Promise<PermissionModeName>
  setPermissionMode(mode: PermissionModeName): Promise<void>
}

/**
 * One session config option as data: its id, name and category (ACP's `mode`, `model`, … or an
 * underscore-prefixed one of ours), how to read its choices and current value for a session, and how to
 * apply the client's choice (throwing RequestError.invalidParams for a value it does not offer). Another
 * option joins by being added to SESSION_CONFIG_OPTIONS (or passed to `configOptionsOf` with `extra`).
 */
export interface ConfigOptionSpec {
  id: string
  name: string
  description: string
  category: string
  read(target: ConfigTarget): Promise<{ currentValue: string; options: SessionConfigSelectOption[] }>
  write(target: ConfigTarget, value: string): Promise<void>
}

const modeOption: ConfigOptionSpec = {
  id: "mode",
  name: "Mode",
  description: "The Roo mode: which tools the agent may use and how it works.",
  category: "mode",
  async read(target) {
    const { currentModeId, availableModes } = await target.modes()
    return {
      currentValue: currentModeId,
      options: availableModes.map((m) => ({ value: m.id, name: m.name, ...(m.description ? { description: m.description } : {}) })),
    }
  },
  write: (target, value) => target.setMode(value),
}

/** The settings' own choice (per mode through agent.modeProfiles) is the value `default`. */
const DEFAULT_MODEL = "default"
const PROFILE = "profile:"
const MODEL = "model:"

/** The model choices: the settings' own, each agent.profiles entry, and the provider's well-known models. */
function modelChoices(settings: Settings): SessionConfigSelectOption[] {
  const profiles = Object.entries(settings.profiles).map(([name, profile]) => ({
    value: `${PROFILE}${name}`,
    name: `Profile ${name}`,
    description: `agent.profiles.${name}: ${profile.provider ?? settings.provider} ${profile.model ?? settings.model}`,
  }))
  const models = [...new Set([settings.model, ...knownModels(settings.provider)])].map((model) => ({
    value: `${MODEL}${model}`,
    name: model,
    description: `${model} on the ${settings.provider} provider`,
  }))
  const perMode = Object.keys(settings.modeProfiles).length > 0 ? " (agent.modeProfiles per mode)" : ""
  return [
    { value: DEFAULT_MODEL, name: `Default: ${settings.model}${perMode}`, description: "What the settings choose." },
    ...profiles,
    ...models,
  ]
}

function modelValue(model: ModelOverride | undefined): string {
  if (!model) return DEFAULT_MODEL
  return "profile" in model ? `${PROFILE}${model.profile}` : `${MODEL}${model.model}`
}

const modelOption: ConfigOptionSpec = {
  id: "model",
  name: "Model",
  description: "The model this session's task uses, from the settings' profiles and the provider's known models.",
  category: "model",
  async read(target) {
    return { currentValue: modelValue(target.model), options: modelChoices(target.settings()) }
  },
  async write(target, value) {
    const offered = modelChoices(target.settings())
    if (!offered.some((o) => o.value === value))
      throw RequestError.invalidParams(undefined, `Unknown model choice "${value}"; offered: ${offered.map((o) => o.value).join(", ")}.`)
    if (value === DEFAULT_MODEL) return target.setModel(undefined)
    if (value.startsWith(PROFILE)) return target.setModel({ profile: value.slice(PROFILE.length) })
    return target.setModel({ model: value.slice(MODEL.length) })
  },
}

/** Every session config option, in the order clients show them. */
export const SESSION_CONFIG_OPTIONS: readonly ConfigOptionSpec[] = [modeOption, modelOption, permissionModeOption]

/** The session's config options as ACP sends them (session/new, session/load, set_config_option, updates). */
export async function configOptionsOf(
  target: ConfigTarget,
  specs: readonly ConfigOptionSpec[] = SESSION_CONFIG_OPTIONS,
): Promise<SessionConfigOption[]> {
  return Promise.all(
    specs.map(async (spec) => ({
      type: "select" as const,
      id: spec.id,
      name: spec.name,
      description: spec.description,
      category: spec.category,
      ...(await spec.read(target)),
    })),
  )
}

/** session/set_config_option: the option's `write`, or invalidParams naming the options there are. */
export async function setConfigOption(
  target: ConfigTarget,
  configId: string,
  value: unknown,
  specs: readonly ConfigOptionSpec[] = SESSION_CONFIG_OPTIONS,
): Promise<void> {
  const spec = specs.find((s) => s.id === configId)
  if (!spec)
    throw RequestError.invalidParams(
      undefined,
      `Unknown config option "${configId}"; the options are: ${specs.map((s) => s.id).join(", ")}.`,
    )
  if (typeof value !== "string")
    throw RequestError.invalidParams(undefined, `The config option "${configId}" takes one of its listed values (a string).`)
  await spec.write(target, value)
}
