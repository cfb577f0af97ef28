import { describe, expect, it } from "vitest"
import { knownModels } from "../../../server/src/model/known-models"
import { contextWindowFor, estimateCostUsd, maxOutputFor } from "../../../server/src/model/pricing"

describe("known models (the model config option's choices)", () => {
  for (const provider of ["anthropic", "openai"] as const)
    it(`offers only ${provider} models whose context window, output cap and price the model table knows`, () => {
      expect(knownModels(provider).length).toBeGreaterThan(0)
      for (const model of knownModels(provider)) {
        expect(contextWindowFor(model, provider), model).toBeGreaterThan(0)
        expect(maxOutputFor(model, provider), model).toBeGreaterThan(0)
        expect(estimateCostUsd(model, { inputTokens: 1_000_000, outputTokens: 0 }, provider), model).toBeGreaterThan(0)
      }
    })
})
