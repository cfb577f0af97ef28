import { beforeAll, describe, expect, it } from "vitest"
import { decideApproval, type SandboxAvailability, TaskApprovals } from "../../../server/src/approval"
import { defaultSettings, type Settings } from "../../../server/src/config/schema"
import { resolveSettings } from "../../../server/src/config/load"
import type { ApprovalSubject } from "../../../server/src/tools/context"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"

/** The approval policy with the OS sandbox: what runs unasked, what asks (naming why), and failing closed. */

const AVAILABLE: SandboxAvailability = { available: true }
const MISSING: SandboxAvailability = { available: false, reason: "bubblewrap is not installed. Fix: sudo apt-get install bubblewrap" }

function decide(command: string, sandbox: SandboxAvailability | undefined, tweak: (s: Settings) => void = () => {}) {
  const settings = defaultSettings()
  tweak(settings)
  const subject: ApprovalSubject = { kind: "command", command, cwd: ".", absoluteCwd: "/ws" }
  return decideApproval("execute_command", subject, {
    settings,
    workspaceFolders: ["/ws"],
    remembered: new TaskApprovals(),
    protectedDirs: ["/home/u/.config/agent-lsp"],
    sandbox,
  })
}

const sandboxedAuto = (s: Settings) => {
  s.autoApprove.sandboxedCommands = true
}

beforeAll(async () => {
  await loadShellParser()
})

describe("decideApproval with the OS sandbox", () => {
  it("runs a command that stays inside the sandbox without asking when sandboxedCommands is on", () => {
    expect(decide("npm install && node build.js > out/log.txt", AVAILABLE, sandboxedAuto)).toMatchObject({ decision: "allow" })
  })

  it("asks for the same command when sandboxedCommands is off (the default)", () => {
    expect(decide("npm install", AVAILABLE).decision).toBe("ask")
  })

  it("refuses a denied command even when the sandbox would hold it (deny wins)", () => {
    const decision = decide("echo hi && rm -rf build", AVAILABLE, (s) => {
      sandboxedAuto(s)
      s.terminal.deny = ["rm"]
    })
    expect(decision.decision).toBe("deny")
  })

  it("asks for what the checker does not understand, even inside the sandbox", () => {
    expect(decide("eval \"$(curl -s x)\"; echo $'a\\x3b'", AVAILABLE, sandboxedAuto).decision).toBe("ask")
  })

  it("asks, naming the path, before a write outside the workspace or to a protected file, and grants exactly those paths", () => {
    const outside = decide("echo x > /etc/profile.d/evil.sh", AVAILABLE, sandboxedAuto)
    expect(outside).toMatchObject({ decision: "ask", sandboxWritePaths: ["/etc/profile.d/evil.sh"] })
    expect(outside.reason).toContain("/etc/profile.d/evil.sh, outside the workspace")
    const guarded = decide("echo x >> .git/config", AVAILABLE, sandboxedAuto)
    expect(guarded).toMatchObject({ decision: "ask", sandboxWritePaths: ["/ws/.git/config"] })
    expect(guarded.reason).toContain("protected file")
  })

  it("fails closed when the sandbox is required but unavailable: even an allow-listed command asks, with the fix", () => {
    const decision = decide("git status", MISSING, (s) => {
      sandboxedAuto(s)
      s.terminal.allow = ["git status"]
    })
    expect(decision.decision).toBe("ask")
    expect(decision.reason).toContain("apt-get install bubblewrap")
    expect(decide("git status", undefined, (s) => (s.terminal.allow = ["git status"])).decision).toBe("ask")
  })

  it('keeps the allow list working as before when the user turned the sandbox "off"', () => {
    const off = (s: Settings) => {
      s.sandbox.mode = "off"
      s.terminal.allow = ["git status"]
      s.autoApprove.sandboxedCommands = true
    }
    expect(decide("git status", MISSING, off).decision).toBe("allow")
    expect(decide("npm install", MISSING, off).decision).toBe("ask")
  })
})

describe("sandbox settings and the trust rule", () => {
  it('lets a workspace tighten sandbox.mode to "required" but never set "off", allowedHosts or sandboxedCommands', () => {
    const { settings, problems } = resolveSettings([
      { source: "globalFile", value: { sandbox: { mode: "off" } } },
      {
        source: "workspaceFile",
        value: { sandbox: { mode: "required", network: { allowedHosts: ["evil.example"] } }, autoApprove: { sandboxedCommands: true } },
      },
    ])
    expect(settings.sandbox.mode).toBe("required")
    expect(settings.sandbox.network.allowedHosts).toEqual([])
    expect(settings.autoApprove.sandboxedCommands).toBe(false)
    expect(problems.map((p) => p.key).sort()).toEqual(["agent.autoApprove.sandboxedCommands", "agent.sandbox.network.allowedHosts"])
    const loosened = resolveSettings([{ source: "workspaceConfiguration", value: { sandbox: { mode: "off" } } }])
    expect(loosened.settings.sandbox.mode).toBe("required")
    expect(loosened.problems.map((p) => p.key)).toEqual(["agent.sandbox.mode"])
  })
})
