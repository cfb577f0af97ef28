import { beforeAll, describe, expect, it } from "vitest"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"
import { decideUnderMode, TaskApprovals } from "../../../server/src/approval"
import { defaultSettings, type PermissionMode, type Settings } from "../../../server/src/config/schema"
import type { ApprovalSubject } from "../../../server/src/tools/context"

const WS = "/ws"
const subjects: Record<string, { tool: string; subject: ApprovalSubject }> = {
  edit: { tool: "write_to_file", subject: { kind: "write", paths: ["/ws/src/a.ts"] } },
  protectedEdit: { tool: "write_to_file", subject: { kind: "write", paths: ["/ws/.git/config"] } },
  command: { tool: "execute_command", subject: { kind: "command", command: "npm test", cwd: ".", absoluteCwd: WS } },
  deniedCommand: { tool: "execute_command", subject: { kind: "command", command: "rm -rf build", cwd: ".", absoluteCwd: WS } },
  mcp: { tool: "mcp--everything--echo", subject: { kind: "mcp", server: "everything", tool: "echo" } },
  subtask: { tool: "new_task", subject: { kind: "subtask", mode: "code" } },
  read: { tool: "read_file", subject: { kind: "read", paths: ["/ws/src/a.ts"] } },
}

function decide(
  mode: PermissionMode,
  name: keyof typeof subjects,
  hook?: { decision: "allow" | "deny" | "ask"; reason?: string },
  deny: string[] = ["rm"],
  sandbox?: { available: boolean; reason?: string },
  tweak: (settings: Settings) => void = () => {},
) {
  const settings = defaultSettings()
  settings.terminal.deny = deny
  tweak(settings)
  const { tool, subject } = subjects[name]!
  const context = {
    settings,
    workspaceFolders: [WS],
    remembered: new TaskApprovals(),
    protectedDirs: ["/home/u/.config/agent-lsp"],
    ...(sandbox ? { sandbox } : {}),
  }
  return decideUnderMode(mode, tool, subject, context, undefined, hook)
}

// What each mode does with each subject (issue 23's table), with the default settings (reads auto-approved)
// and agent.terminal.deny ["rm"]. Without the sandbox, auto behaves as acceptEdits.
const TABLE: Record<PermissionMode, Record<keyof typeof subjects, "allow" | "ask" | "deny">> = {
  default: { edit: "ask", protectedEdit: "ask", command: "ask", deniedCommand: "deny", mcp: "ask", subtask: "ask", read: "allow" },
  acceptEdits: { edit: "allow", protectedEdit: "ask", command: "ask", deniedCommand: "deny", mcp: "ask", subtask: "ask", read: "allow" },
  auto: { edit: "allow", protectedEdit: "ask", command: "ask", deniedCommand: "deny", mcp: "ask", subtask: "ask", read: "allow" },
  plan: { edit: "deny", protectedEdit: "deny", command: "deny", deniedCommand: "deny", mcp: "deny", subtask: "deny", read: "allow" },
  dontAsk: { edit: "deny", protectedEdit: "deny", command: "deny", deniedCommand: "deny", mcp: "deny", subtask: "deny", read: "allow" },
  bypassPermissions: {
    edit: "allow",
    protectedEdit: "ask",
    command: "ask", // the sandbox's state is unknown here: a command would run outside it (see below)
    deniedCommand: "deny",
    mcp: "allow",
    subtask: "allow",
    read: "allow",
  },
}

// The command policy reads command lines with the shell grammar.
beforeAll(async () => {
  await loadShellParser()
})

describe("permission modes", () => {
  for (const [mode, row] of Object.entries(TABLE) as [PermissionMode, Record<string, string>][]) {
    it(`${mode}: runs, asks and refuses as the mode table says`, () => {
      const got = Object.fromEntries(Object.keys(row).map((name) => [name, decide(mode, name as keyof typeof subjects).decision]))
      expect(got).toEqual(row)
    })
  }

  it("tells the model in plan mode that it is planning and how to end (exit_plan_mode)", () => {
    const decision = decide("plan", "edit")
    expect(decision.reason).toMatch(/plan mode/)
    expect(decision.reason).toMatch(/exit_plan_mode/)
  })

  it("tells the model in dontAsk that nobody is asked, and why the call needed approval", () => {
    const decision = decide("dontAsk", "command")
    expect(decision.reason).toMatch(/dontAsk permission mode, where nobody is asked/)
    expect(decision.reason).toMatch(/not auto-approved: npm test/)
  })

  it("keeps the deny list's own message in every mode", () => {
    for (const mode of Object.keys(TABLE) as PermissionMode[]) {
      if (mode === "plan") continue
      expect(decide(mode, "deniedCommand").reason).toMatch(/agent.terminal.deny/)
    }
    // Control: with the deny list empty, the same command runs in bypassPermissions and asks in default.
    expect(decide("bypassPermissions", "deniedCommand", undefined, [], { available: true }).decision).toBe("allow")
    expect(decide("default", "deniedCommand", undefined, []).decision).toBe("ask")
  })

  it("refuses in plan and dontAsk only because of the mode: the same calls run in bypassPermissions", () => {
    for (const mode of ["plan", "dontAsk"] as const)
      for (const name of ["edit", "command", "mcp", "subtask"] as const) {
        expect(decide(mode, name).decision, `${mode} ${name}`).toBe("deny")
        expect(decide("bypassPermissions", name, undefined, ["rm"], { available: true }).decision, `bypassPermissions ${name}`).toBe(
          "allow",
        )
      }
  })

  it("asks in bypassPermissions for a command the required OS sandbox cannot hold, and runs it where the sandbox holds it or is turned off", () => {
    const missing = { available: false, reason: "bubblewrap is not installed" }
    expect(decide("bypassPermissions", "command", undefined, ["rm"], missing)).toMatchObject({ decision: "ask", unsandboxed: true })
    expect(decide("bypassPermissions", "command", undefined, ["rm"], { available: true }).decision).toBe("allow")
    const off = (settings: Settings) => {
      settings.sandbox.mode = "off"
    }
    expect(decide("bypassPermissions", "command", undefined, ["rm"], missing, off).decision).toBe("allow")
  })

  it("asks before a protected path in bypassPermissions, and runs the same edit elsewhere without asking", () => {
    expect(decide("bypassPermissions", "protectedEdit").decision).toBe("ask")
    expect(decide("bypassPermissions", "edit").decision).toBe("allow")
  })

  it("lets a PreToolUse hook's allow skip the question, but never past a deny list, a protected path or a missing sandbox", () => {
    const allow = { decision: "allow" as const, reason: "trusted by the hook" }
    const held = { available: true }
    const missing = { available: false, reason: "bubblewrap is not installed" }
    expect(decide("default", "command", allow, ["rm"], held).decision).toBe("allow")
    expect(decide("default", "deniedCommand", allow, ["rm"], held).decision).toBe("deny")
    expect(decide("default", "protectedEdit", allow).decision).toBe("ask")
    expect(decide("plan", "edit", allow).decision).toBe("deny")
    // The sandbox cannot hold the command (or its state is unknown): only the user may let it run unsandboxed.
    expect(decide("default", "command", allow, ["rm"], missing).decision).toBe("ask")
    expect(decide("default", "command", allow).decision).toBe("ask")
    // Controls: without the deny list the hook's allow lets the same command run; the same allow skips the
    // question for an edit that is not protected, and outside plan mode.
    expect(decide("default", "deniedCommand", allow, [], held).decision).toBe("allow")
    expect(decide("default", "deniedCommand", undefined, [], held).decision).toBe("ask")
    expect(decide("default", "edit", allow).decision).toBe("allow")
    expect(decide("default", "edit").decision).toBe("ask")
  })

  it("lets a PreToolUse hook refuse or ask where the policy would allow, and refuses its ask in dontAsk", () => {
    expect(decide("bypassPermissions", "read", { decision: "deny", reason: "no reading today" })).toMatchObject({
      decision: "deny",
      reason: expect.stringContaining("no reading today"),
    })
    // Control: without the hook the same read runs.
    expect(decide("bypassPermissions", "read").decision).toBe("allow")
    expect(decide("dontAsk", "read").decision).toBe("allow")
    expect(decide("default", "read", { decision: "ask" }).decision).toBe("ask")
    expect(decide("dontAsk", "read", { decision: "ask" }).decision).toBe("deny")
  })
})
