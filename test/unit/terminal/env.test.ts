import { describe, expect, it } from "vitest"
import { commandEnv, commandShell, shellDialect, shellReadingGap } from "../../../server/src/terminal/env"

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
    expect(env).toEqual({
      PATH: "/bin",
      HOME: "/home/u",
      PAGER: "cat",
      GIT_PAGER: "cat",
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_COUNT: "2",
      GIT_CONFIG_KEY_0: "safe.bareRepository",
      GIT_CONFIG_VALUE_0: "explicit",
      GIT_CONFIG_KEY_1: "core.fsmonitor",
      GIT_CONFIG_VALUE_1: "false",
    })
  })

  it("appends git's hardening after the pairs the user's environment already sets, keeping them", () => {
    const env = commandEnv({ GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "user.name", GIT_CONFIG_VALUE_0: "Me" })
    expect(env).toMatchObject({
      GIT_CONFIG_COUNT: "3",
      GIT_CONFIG_KEY_0: "user.name",
      GIT_CONFIG_VALUE_0: "Me",
      GIT_CONFIG_KEY_1: "safe.bareRepository",
      GIT_CONFIG_KEY_2: "core.fsmonitor",
      GIT_CONFIG_VALUE_2: "false",
    })
  })

  it("runs commands with bash without startup files by default, /bin/sh only when chosen, never $SHELL", () => {
    expect(commandShell()).toEqual(["/bin/bash", "--noprofile", "--norc", "-c"])
    expect(commandShell("bash")).toEqual(["/bin/bash", "--noprofile", "--norc", "-c"])
    expect(commandShell("sh")).toEqual(["/bin/sh", "-c"])
    expect(shellDialect("bash")).toBe("bash")
    expect(shellReadingGap("bash")).toBeUndefined()
  })

  it("falls back to /bin/sh where bash is missing, reads the line as sh, and says why every such line asks", () => {
    expect(commandShell("bash", "/nonexistent/bash")).toEqual(["/bin/sh", "-c"])
    expect(shellDialect("bash", "/nonexistent/bash")).toBe("sh")
    expect(shellReadingGap("bash", "/nonexistent/bash")).toMatch(/bash is not installed at \/nonexistent\/bash/)
    expect(shellReadingGap("sh", "/nonexistent/bash")).toBeUndefined()
  })
})
