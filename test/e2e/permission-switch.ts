import { existsSync } from "node:fs"
import { expect } from "vitest"
import type { FakeAnthropic, FakeReply } from "../support/fake-anthropic"
import type { TempWorkspace } from "../support/temp-workspace"

/**
 * The model's side of the editors' permission-switch tests: two tasks each try to write a file and finish;
 * the first runs in plan (the edit is refused without asking), the second in acceptEdits (it runs unasked).
 */
export const SWITCH_REPLIES: FakeReply[] = [
  { toolCalls: [{ name: "write_to_file", input: { path: "b.txt", content: "b\n" } }] },
  { toolCalls: [{ name: "attempt_completion", input: { result: "planned" } }] },
  { toolCalls: [{ name: "write_to_file", input: { path: "c.txt", content: "c\n" } }] },
  { toolCalls: [{ name: "attempt_completion", input: { result: "written" } }] },
]

/** The switches reached the server: the first task was planned (refused, told so), the second wrote its file. */
export function expectPlanThenAcceptEdits(ws: TempWorkspace, fake: FakeAnthropic): void {
  expect(existsSync(ws.path("b.txt"))).toBe(false)
  expect(fake.requests[0]!.body.tools.map((t: any) => t.name)).toContain("exit_plan_mode")
  expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain("plan mode")
  expect(existsSync(ws.path("c.txt"))).toBe(true)
}
