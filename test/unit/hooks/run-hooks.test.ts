import { existsSync, readdirSync, readFileSync } from "node:fs"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { homedir, tmpdir } from "node:os"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { defaultSettings, type HooksConfig, type Settings } from "../../../server/src/config/schema"
import { HOOK_MAX_OUTPUT_BYTES, runHooks } from "../../../server/src/hooks"
import { placeholdersSettled } from "../../../server/src/sandbox/placeholders"

let dir: string

function settingsWith(hooks: HooksConfig): Settings {
  const settings = defaultSettings()
  settings.hooks = hooks
  return settings
}

/** Live (not zombie) processes whose command line contains `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = []
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ")
      const zombie = /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${name}/stat`, "utf8"))
      if (!zombie && cmdline.includes(marker)) found.push(Number(name))
    } catch {
      // gone meanwhile
    }
  }
  return found
}
const base = () => ({ session_id: "t1", transcript_path: join(dir, "t1.jsonl"), cwd: dir, permission_mode: "default" })
const pre = { hook_event_name: "PreToolUse" as const, tool_name: "write_to_file", tool_input: { path: "a.ts" }, tool_use_id: "c1" }
const one = (command: string, timeout?: number, matcher?: string): HooksConfig => ({
  PreToolUse: [{ matcher, hooks: [{ type: "command", command, ...(timeout ? { timeout } : {}) }] }],
})

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hooks-"))
})

describe("runHooks", () => {
  it("gives the hook Claude Code's input on stdin, without the API keys in its environment", async () => {
    process.env.ANTHROPIC_API_KEY = "sk-ant-test-secret"
    try {
      const verdict = await runHooks(settingsWith(one(`cat > input.json; env > env.txt`)), base(), pre)
      expect(verdict.ran).toBe(1)
      expect(JSON.parse(await readFile(join(dir, "input.json"), "utf8"))).toEqual({ ...base(), ...pre })
      const env = await readFile(join(dir, "env.txt"), "utf8")
      expect(env).not.toContain("sk-ant-test-secret")
      expect(env).toContain(`CLAUDE_PROJECT_DIR=${dir}`)
    } finally {
      delete process.env.ANTHROPIC_API_KEY
    }
  })

  it("blocks on exit 2 with stderr as the reason", async () => {
    const verdict = await runHooks(settingsWith(one(`echo "no writes under migrations/" >&2; exit 2`)), base(), pre)
    expect(verdict.block).toEqual({ reason: "no writes under migrations/" })
  })

  it("reads permissionDecision, its reason and updatedInput from JSON on stdout", async () => {
    const out = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        permissionDecisionReason: "ok",
        updatedInput: { path: "b.ts" },
      },
      systemMessage: "checked",
    })
    const verdict = await runHooks(settingsWith(one(`echo '${out}'`)), base(), pre)
    expect(verdict).toMatchObject({
      permission: { decision: "allow", reason: "ok" },
      updatedInput: { path: "b.ts" },
      userMessages: ["checked"],
    })
  })

  it("combines hooks that run in parallel: deny wins over allow, and both run at once", async () => {
    // Each hook marks that it started and answers only once it has seen the other's mark (waiting at most
    // 10 s): run one after the other, the first never sees the second's mark, and its answer is missing.
    const meeting = (me: string, other: string, decision: string) =>
      `touch ${me}-started; for i in $(seq 200); do [ -e ${other}-started ] && break; sleep 0.05; done; ` +
      `[ -e ${other}-started ] && touch ${me}-met && echo '{"hookSpecificOutput":${decision}}'`
    const allow = meeting("allow", "deny", `{"permissionDecision":"allow"}`)
    const deny = meeting("deny", "allow", `{"permissionDecision":"deny","permissionDecisionReason":"nope"}`)
    const hooks: HooksConfig = {
      PreToolUse: [
        {
          matcher: "*",
          hooks: [
            { type: "command", command: allow },
            { type: "command", command: deny },
          ],
        },
      ],
    }
    const verdict = await runHooks(settingsWith(hooks), base(), pre)
    expect([existsSync(join(dir, "allow-met")), existsSync(join(dir, "deny-met"))]).toEqual([true, true])
    expect(verdict.permission).toEqual({ decision: "deny", reason: "nope" })
  })

  it("runs only hooks whose RE2 matcher matches the whole tool name", async () => {
    expect((await runHooks(settingsWith(one("true", undefined, "write_to_file|apply_diff")), base(), pre)).ran).toBe(1)
    expect((await runHooks(settingsWith(one("true", undefined, "write")), base(), pre)).ran).toBe(0)
    expect((await runHooks(settingsWith(one("true", undefined, "")), base(), pre)).ran).toBe(1)
    // RE2 refuses backreferences: such a matcher matches nothing rather than running a slow regex.
    expect((await runHooks(settingsWith(one("true", undefined, "(a)\\1")), base(), pre)).ran).toBe(0)
  })

  it("kills a hook that hangs at its timeout, with everything it started, as a non-blocking error", async () => {
    const verdict = await runHooks(settingsWith(one(`sleep 31.25 & wait`, 1)), base(), pre)
    expect(verdict.block).toBeUndefined()
    expect(verdict.userMessages[0]).toMatch(/timed out and was killed/)
    await new Promise((r) => setTimeout(r, 700))
    expect(processesWith("sleep 31.25")).toEqual([])
  })

  it("runs hooks in the OS sandbox: the workspace is writable, a folder outside it is not", async () => {
    const outside = await mkdtemp(join(homedir(), ".hooks-outside-"))
    try {
      await runHooks(settingsWith(one(`echo in > inside.txt; echo out > ${outside}/x.txt`)), base(), pre)
      expect(readFileSync(join(dir, "inside.txt"), "utf8")).toBe("in\n")
      expect(existsSync(join(outside, "x.txt"))).toBe(false)
    } finally {
      await rm(outside, { recursive: true, force: true })
    }
  })

  it("refuses a hook creating a protected path that does not exist yet, and leaves no placeholder behind", async () => {
    const plant = "echo evil > .envrc; mkdir -p .vscode && echo '{}' > .vscode/tasks.json; echo ok > hook-ran.txt"
    await runHooks(settingsWith(one(plant)), base(), pre)
    await placeholdersSettled() // removed just after the hook ended
    expect(readFileSync(join(dir, "hook-ran.txt"), "utf8")).toBe("ok\n")
    expect(existsSync(join(dir, ".envrc"))).toBe(false)
    expect(existsSync(join(dir, ".vscode"))).toBe(false)
  })

  it("treats a crash (exit 1) as a non-blocking error shown to the user", async () => {
    const verdict = await runHooks(settingsWith(one(`echo boom >&2; exit 1`)), base(), pre)
    expect(verdict.block).toBeUndefined()
    expect(verdict.permission).toBeUndefined()
    expect(verdict.userMessages[0]).toMatch(/failed \(exit 1, non-blocking\): boom/)
  })

  it("ignores invalid JSON on stdout and says so", async () => {
    const verdict = await runHooks(settingsWith(one(`echo '{"hookSpecificOutput": {'`)), base(), pre)
    expect(verdict.permission).toBeUndefined()
    expect(verdict.userMessages[0]).toMatch(/invalid JSON/)
  })

  it("keeps at most the output bound of a hook that floods stdout", async () => {
    // UserPromptSubmit hands plain stdout to the model: 20 MB arrive, the bound is what is kept.
    const hooks: HooksConfig = {
      UserPromptSubmit: [{ hooks: [{ type: "command", command: "head -c 20000000 /dev/zero | tr '\\0' 'x'" }] }],
    }
    const verdict = await runHooks(settingsWith(hooks), base(), { hook_event_name: "UserPromptSubmit", prompt: "hi" })
    expect(verdict.additionalContext?.length).toBe(HOOK_MAX_OUTPUT_BYTES)
  })

  it("adds a UserPromptSubmit hook's plain stdout as context, and blocks the prompt on exit 2", async () => {
    const hooks: HooksConfig = {
      UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo 'branch: main'" }] }],
    }
    const input = { hook_event_name: "UserPromptSubmit" as const, prompt: "hi" }
    expect((await runHooks(settingsWith(hooks), base(), input)).additionalContext).toBe("branch: main")
    const blocking: HooksConfig = { UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo 'no secrets' >&2; exit 2" }] }] }
    expect((await runHooks(settingsWith(blocking), base(), input)).block?.reason).toBe("no secrets")
  })

  it("reads decision block with reason, and continue false with stopReason", async () => {
    const hooks: HooksConfig = {
      Stop: [
        { hooks: [{ type: "command", command: `echo '{"decision":"block","reason":"tests fail","continue":false,"stopReason":"halt"}'` }] },
      ],
    }
    const verdict = await runHooks(settingsWith(hooks), base(), { hook_event_name: "Stop", stop_hook_active: false })
    expect(verdict.block).toEqual({ reason: "tests fail" })
    expect(verdict.stop).toEqual({ reason: "halt" })
  })
})
