import { describe, expect, it } from "vitest"
import { encodedForms, redactSecrets } from "../../../server/src/config/redact"
import { registerConfiguredSecrets } from "../../../server/src/config/secrets"

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

describe("redacting secrets a server's configuration hands on, and encoded keys", () => {
  it("removes an MCP server's secret env values and credential headers, and leaves its other values alone", () => {
    registerConfiguredSecrets("MCP server unit", {
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghx-unit-token-0123456789", LOG_LEVEL: "debugging-verbose" },
      headers: { "X-Upstream-Auth": "Token unit-header-cred-9876543", "Content-Type": "application/json; charset" },
    })
    const text = "env ghx-unit-token-0123456789 header unit-header-cred-9876543 level debugging-verbose type application/json; charset"
    expect(redactSecrets(text, {})).toBe(
      "env [GITHUB_PERSONAL_ACCESS_TOKEN redacted] header [MCP server unit header X-Upstream-Auth redacted] level debugging-verbose type application/json; charset",
    )
  })

  it("removes the key printed as base64 at any offset, and percent-encoded", () => {
    const key = "unit-key/with+odd=chars-0123456789"
    const env = { ANTHROPIC_API_KEY: key }
    for (const before of ["", "A", "AB", "ANTHROPIC_API_KEY="]) {
      const printed = Buffer.from(`${before}${key}\n`).toString("base64")
      const redacted = redactSecrets(`out: ${printed}`, env)
      expect(redacted, before).toContain("[ANTHROPIC_API_KEY redacted]")
      expect(Buffer.from(redacted.slice(5), "base64").toString("latin1")).not.toContain(key.slice(2, 30))
    }
    expect(redactSecrets(`?key=${encodeURIComponent(key)}`, env)).toBe("?key=[ANTHROPIC_API_KEY redacted]")
    expect(encodedForms("short-one")).toEqual([])
  })
})
