import { describe, expect, it } from "vitest"
import { formatNewProblems, introducedProblems } from "../../../server/src/tools/edit-support/new-problems"
import type { Problem } from "../../../server/src/tools/context"

const p = (line: number, message: string, severity: Problem["severity"] = "error", code?: number): Problem => ({
  line,
  column: 1,
  severity,
  message,
  source: "typescript",
  ...(code ? { code } : {}),
})

describe("problems an edit introduced", () => {
  it("ignores a problem that was already there even though the edit moved it to another line", () => {
    const before = [p(3, "Cannot find name 'x'.", "error", 2304)]
    const after = [p(7, "Cannot find name 'x'.", "error", 2304), p(9, "Type 'string' is not assignable to type 'number'.", "error", 2322)]
    expect(introducedProblems(before, after, "error")).toEqual([after[1]])
  })

  it("counts a second copy of an old message as new", () => {
    const before = [p(1, "Unused variable.", "error")]
    const after = [p(1, "Unused variable.", "error"), p(5, "Unused variable.", "error")]
    expect(introducedProblems(before, after, "error")).toEqual([after[1]])
  })

  it("reports warnings only when minSeverity is warning, and never hints", () => {
    const after = [p(2, "Deprecated.", "warning"), p(4, "Could be const.", "hint"), p(1, "Bad.", "error")]
    expect(introducedProblems([], after, "error").map((x) => x.message)).toEqual(["Bad."])
    expect(introducedProblems([], after, "warning").map((x) => x.message)).toEqual(["Bad.", "Deprecated."])
  })

  it("formats each problem with its file, line, column, severity, source and code", () => {
    const text = formatNewProblems("src/a.ts", [p(12, "Type 'string' is not assignable to type 'number'.", "error", 2322)])
    expect(text).toBe(
      "New problems after the edit:\n- src/a.ts:12:1 error (typescript 2322): Type 'string' is not assignable to type 'number'.\nFix them unless they are expected (e.g. code that a later edit completes).",
    )
  })
})
