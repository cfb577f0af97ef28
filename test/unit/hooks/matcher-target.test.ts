import { describe, expect, it } from "vitest"
import { matcherMatches, matcherTarget } from "../../../server/src/hooks/matcher"

describe("what a hook's matcher is matched against (Claude Code's per-event targets)", () => {
  it("matches tool events on the tool name, Notification on its type, PreCompact on its trigger, SessionStart on its source", () => {
    expect(matcherTarget({ hook_event_name: "PreToolUse", tool_name: "write_to_file" })).toBe("write_to_file")
    expect(matcherTarget({ hook_event_name: "Notification", notification_type: "permission_prompt" })).toBe("permission_prompt")
    expect(matcherTarget({ hook_event_name: "PreCompact", trigger: "auto" })).toBe("auto")
    expect(matcherTarget({ hook_event_name: "SessionStart", source: "resume" })).toBe("resume")
  })

  it("has no target for events without a matcher, so every hook of theirs runs", () => {
    expect(matcherTarget({ hook_event_name: "UserPromptSubmit" })).toBeUndefined()
    expect(matcherTarget({ hook_event_name: "Stop" })).toBeUndefined()
    expect(matcherTarget({ hook_event_name: "SessionEnd" })).toBeUndefined()
  })

  it("runs a permission_prompt hook for that type only, and an empty or * matcher for every type", () => {
    expect(matcherMatches("permission_prompt", "permission_prompt")).toBe(true)
    expect(matcherMatches("permission_prompt", "idle_prompt")).toBe(false)
    expect(matcherMatches("permission_prompt|idle_prompt", "idle_prompt")).toBe(true)
    expect(matcherMatches("", "idle_prompt")).toBe(true)
    expect(matcherMatches("*", "elicitation_dialog")).toBe(true)
  })
})
