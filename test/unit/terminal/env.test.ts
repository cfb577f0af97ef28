import { describe, expect, it } from "vitest"
import { commandEnv, commandShell } from "../../../server/src/terminal/env"

describe("command environment", () => {
  it("drops the Anthropic key and other API keys and auth tokens, keeps the rest", () => {
    const env = commandEnv({
      PATH: "/bin",
      HOME: "/home/u",
      ANTHROPIC_API_KEY: "sk-ant",
      ANTHROPIC_AUTH_TOKEN: "tok",
      OPENAI_API_KEY: "sk",
      GITHUB_AUTH_TOKEN: "gh",
      AWS_SECRET_KEY: "aws",
    })
    expect(env).toEqual({ PATH: "/bin", HOME: "/home/u", PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" })
  })

  it("runs commands with /bin/sh, or bash when chosen, never $SHELL", () => {
    expect(commandShell()).toBe("/bin/sh")
    expect(commandShell("sh")).toBe("/bin/sh")
    expect(commandShell("bash")).toBe("/bin/bash")
  })
})
