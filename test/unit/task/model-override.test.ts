import { describe, expect, it } from "vitest"
import { SettingsSchema } from "../../../server/src/config/schema"
import { modelForMode } from "../../../server/src/task/model-for-mode"

const settings = SettingsSchema.parse({
  model: "claude-sonnet-4-5",
  profiles: {
    cheap: { model: "claude-haiku-4-5" },
    local: { provider: "openai", model: "qwen", baseUrl: "http://127.0.0.1:1/v1", contextWindow: 32768 },
  },
  modeProfiles: { architect: "cheap" },
})

describe("a task's chosen model", () => {
  it("a chosen model wins over the mode's profile, on the top-level provider", () => {
    expect(modelForMode(settings, "architect").model).toBe("claude-haiku-4-5")
    const chosen = modelForMode(settings, "architect", { model: "claude-opus-4-5" })
    expect(chosen).toMatchObject({ model: "claude-opus-4-5", provider: "anthropic", profile: undefined })
  })

  it("a chosen profile is used in every mode, with its own provider and base URL", () => {
    expect(modelForMode(settings, "code", { profile: "local" })).toMatchObject({
      model: "qwen",
      provider: "openai",
      baseUrl: "http://127.0.0.1:1/v1",
      profile: "local",
    })
  })

  it("a chosen profile that the settings no longer define is a config error naming the choice", () => {
    expect(() => modelForMode(settings, "code", { profile: "gone" })).toThrow(/The model chosen for this task names the profile "gone"/)
  })
})
