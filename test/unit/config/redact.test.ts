import { describe, expect, it } from "vitest"
import { redactSecrets } from "../../../server/src/config/redact"

describe("redactSecrets", () => {
  const env = { ANTHROPIC_API_KEY: "sk-ant-api03-secretvalue-XYZ" }
  it("removes the API key value wherever it appears", () => {
    expect(redactSecrets("key=sk-ant-api03-secretvalue-XYZ in text", env)).toBe("key=[ANTHROPIC_API_KEY redacted] in text")
  })
  it("removes authorization and x-api-key header values", () => {
    expect(redactSecrets('{"Authorization":"Bearer abc.def","x-api-key":"k123"}', {})).toBe(
      '{"Authorization":"Bearer [redacted]","x-api-key":"[redacted]"}',
    )
    expect(redactSecrets("authorization: Bearer tok123", {})).toBe("authorization: Bearer [redacted]")
  })
  it("removes anything shaped like an Anthropic key even when it is not the configured one", () => {
    expect(redactSecrets("other sk-ant-abcdefghijklmnop here", {})).toBe("other sk-ant-[redacted] here")
  })
  it("removes the OpenAI-compatible key and OpenAI / OpenRouter shaped keys", () => {
    expect(redactSecrets("k=local-server-token-123", { OPENAI_API_KEY: "local-server-token-123" })).toBe("k=[OPENAI_API_KEY redacted]")
    expect(redactSecrets("sk-proj-abcdefghijkl and sk-or-v1-0123456789abcdef", {})).toBe("sk-proj-[redacted] and sk-or-v1-[redacted]")
  })
  it("leaves ordinary text alone", () => {
    expect(redactSecrets("task t1: running: Waiting for the model (request 1)", env)).toBe(
      "task t1: running: Waiting for the model (request 1)",
    )
  })
})
