import { describe, expect, it } from "vitest"
import { SettingsSchema } from "../../../server/src/config/schema"
import { ModelError } from "../../../server/src/model/provider"
import { modelForMode } from "../../../server/src/task/model-for-mode"

const settings = (value: unknown) => SettingsSchema.parse(value)

describe("modelForMode", () => {
  it("uses the top-level settings for a mode without a profile, with the model's window and a capped reply size", () => {
    const choice = modelForMode(
      settings({ provider: "openai", model: "gpt-4o", maxTokens: 50_000, baseUrl: "http://127.0.0.1:1/v1" }),
      "code",
    )
    expect(choice).toEqual({
      profile: undefined,
      provider: "openai",
      model: "gpt-4o",
      baseUrl: "http://127.0.0.1:1/v1",
      maxTokens: 16_384,
      contextWindow: 128_000,
      idleMs: 120_000,
    })
  })

  it("takes a profile's own key variable, which no other mode inherits", () => {
    const s = settings({
      provider: "openai",
      model: "gpt-4o",
      profiles: { router: { model: "openai/gpt-4o", baseUrl: "https://openrouter.ai/api/v1", apiKeyEnv: "OPENROUTER_API_KEY" } },
      modeProfiles: { code: "router" },
    })
    expect(modelForMode(s, "code").apiKeyEnv).toBe("OPENROUTER_API_KEY")
    expect(modelForMode(s, "ask").apiKeyEnv).toBeUndefined()
    expect(() => settings({ profiles: { bad: { apiKeyEnv: "NOT-A-NAME" } } })).toThrow()
  })

  it("gives each mode its profile, which inherits the top-level keys it does not set", () => {
    const s = settings({
      model: "claude-sonnet-5-5",
      maxTokens: 4000,
      contextWindow: 150_000,
      timeouts: { modelIdleSeconds: 7 },
      profiles: {
        strong: { model: "claude-opus-4-5" },
        local: { provider: "openai", model: "qwen2.5-coder:14b", baseUrl: "http://localhost:11434/v1", contextWindow: 32_768 },
      },
      modeProfiles: { architect: "strong", code: "local" },
    })
    expect(modelForMode(s, "architect")).toMatchObject({
      profile: "strong",
      provider: "anthropic",
      model: "claude-opus-4-5",
      maxTokens: 4000,
      contextWindow: 150_000,
      idleMs: 7000,
    })
    expect(modelForMode(s, "code")).toMatchObject({
      profile: "local",
      provider: "openai",
      model: "qwen2.5-coder:14b",
      baseUrl: "http://localhost:11434/v1",
      contextWindow: 32_768,
    })
    expect(modelForMode(s, "ask")).toMatchObject({ profile: undefined, model: "claude-sonnet-5-5" })
  })

  it("does not carry the top-level model or base URL into a profile on another provider", () => {
    const s = settings({
      baseUrl: "https://proxy.example/anthropic",
      profiles: { oai: { provider: "openai" } },
      modeProfiles: { code: "oai" },
    })
    const error = (() => {
      try {
        modelForMode(s, "code")
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ModelError)
    expect((error as ModelError).message).toContain("set agent.profiles.oai.model")
    const named = settings({
      baseUrl: "https://proxy.example/anthropic",
      profiles: { oai: { provider: "openai", model: "gpt-4.1" } },
      modeProfiles: { code: "oai" },
    })
    expect(modelForMode(named, "code").baseUrl).toBeUndefined()
  })

  it("asks for contextWindow, naming the setting, for a model it does not know on the openai provider", () => {
    expect(() => modelForMode(settings({ provider: "openai", model: "llama3.1:8b" }), "code")).toThrow(
      /"llama3\.1:8b".*set agent\.contextWindow/,
    )
    expect(() =>
      modelForMode(settings({ profiles: { l: { provider: "openai", model: "mystery" } }, modeProfiles: { code: "l" } }), "code"),
    ).toThrow(/agent\.profiles\.l\.contextWindow/)
    expect(modelForMode(settings({ provider: "openai", model: "llama3.1:8b", contextWindow: 32_768 }), "code").contextWindow).toBe(32_768)
  })

  it("knows OpenRouter names by their vendor prefix", () => {
    expect(modelForMode(settings({ provider: "openai", model: "anthropic/claude-sonnet-4.5" }), "code").contextWindow).toBe(200_000)
    expect(modelForMode(settings({ provider: "openai", model: "openai/gpt-4.1-mini" }), "code").contextWindow).toBe(1_047_576)
  })

  it("fails clearly when a mode names a profile that does not exist", () => {
    expect(() => modelForMode(settings({ profiles: { a: {} }, modeProfiles: { code: "b" } }), "code")).toThrow(
      /agent\.modeProfiles\.code names the profile "b".*it defines: a/,
    )
  })
})
