import { describe, expect, it } from "vitest"
import { decideApproval, TaskApprovals } from "../../../server/src/approval"
import { defaultSettings } from "../../../server/src/config/schema"
import type { ApprovalSubject } from "../../../server/src/tools/context"

/** A browser launch under the OS sandbox's fail-closed rule (agent.sandbox.mode "required"). */

function decide(sandbox: { available: boolean; reason?: string } | undefined, always = false) {
  const settings = defaultSettings()
  settings.autoApprove.browser = true
  const remembered = new TaskApprovals()
  if (always) remembered.allowTool("browser_action")
  const subject: ApprovalSubject = { kind: "browser", url: "http://localhost:3000/", ...(sandbox ? { sandbox } : {}) }
  return decideApproval("browser_action", subject, { settings, workspaceFolders: ["/ws"], remembered })
}

describe("decideApproval for a browser launch and the OS sandbox", () => {
  it("launches unasked under autoApprove.browser when the sandbox holds the browser", () => {
    expect(decide({ available: true }).decision).toBe("allow")
  })

  it("asks, naming why and the fix, when the sandbox is unavailable, even under autoApprove.browser or an always-allow", () => {
    const missing = { available: false, reason: "bubblewrap is not installed. Fix: sudo apt-get install bubblewrap" }
    for (const decision of [decide(missing), decide(missing, true)]) {
      expect(decision.decision).toBe("ask")
      expect(decision.reason).toContain("the browser would run outside it")
      expect(decision.reason).toContain("apt-get install bubblewrap")
    }
  })

  it("goes by the settings alone when the sandbox is not required (no sandbox state on the subject)", () => {
    expect(decide(undefined).decision).toBe("allow")
  })
})
