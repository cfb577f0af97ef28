import { describe, expect, it } from "vitest"
import { environmentDetails, newEnvironmentMemory, type EnvironmentPort } from "../../../server/src/task/environment"
import { MAX_NEW_ERRORS } from "../../../server/src/task/environment-errors"
import type { DiagnosticsPort, FileProblems, Problem } from "../../../server/src/tools/context"

/** A diagnostics source whose problems the test sets; it records what it was asked about. */
class FakeDiagnostics implements DiagnosticsPort {
  problems = new Map<string, Problem[]>()
  asked: string[][] = []
  /** Answers only for the files asked (like an editor), or every file it knows (like a language server). */
  constructor(private readonly answers: "asked" | "all" = "all") {}
  async watch() {
    return undefined
  }
  async current(paths: readonly string[]): Promise<FileProblems[] | undefined> {
    this.asked.push([...paths])
    if (this.answers === "asked") return paths.map((path) => ({ path, problems: this.problems.get(path) ?? [] }))
    return [...this.problems].map(([path, problems]) => ({ path, problems }))
  }
}

const error = (line: number, message: string): Problem => ({ line, column: 1, severity: "error", message })
const warning = (line: number, message: string): Problem => ({ line, column: 1, severity: "warning", message })

function editor(open: string[], edits: string[] = []): EnvironmentPort {
  return { openFiles: () => open, activeFile: () => undefined, takeUserEdits: () => edits.splice(0) }
}

const turn = (
  port: EnvironmentPort | undefined,
  memory: ReturnType<typeof newEnvironmentMemory>,
  diagnostics: DiagnosticsPort,
  firstTurn = false,
) => environmentDetails(port, memory, { folder: "/ws", workspaceFolders: ["/ws"], firstTurn, diagnostics })

describe("new errors in the environment details", () => {
  it("takes note of the errors already there on the first turn and tells only errors that appear later, with file:line", async () => {
    const diagnostics = new FakeDiagnostics()
    diagnostics.problems.set("/ws/a.ts", [error(3, "Old error.")])
    diagnostics.problems.set("/ws/b.ts", [])
    const memory = newEnvironmentMemory()
    expect(await turn(undefined, memory, diagnostics, true)).toBeUndefined()

    diagnostics.problems.set("/ws/a.ts", [error(5, "Old error."), warning(6, "Only a warning.")])
    diagnostics.problems.set("/ws/b.ts", [error(2, "Cannot find name 'x'.\nDid you mean 'y'?")])
    expect(await turn(undefined, memory, diagnostics)).toBe(
      "<environment>\nNew errors since your last turn (1):\nb.ts:2: Cannot find name 'x'.\n</environment>",
    )
    // Told once: the same errors on the next turn are not news (the old one moved lines, still not news).
    diagnostics.problems.set("/ws/a.ts", [error(9, "Old error.")])
    expect(await turn(undefined, memory, diagnostics)).toBeUndefined()
  })

  it("does not call a file's errors new the first time the source answers for it, unless the user edited it", async () => {
    const diagnostics = new FakeDiagnostics()
    const memory = newEnvironmentMemory()
    const edits: string[] = []
    const port = editor([], edits)
    await turn(port, memory, diagnostics, true)
    // The agent just edited c.ts (its edit result named its problems) and the server now publishes for it.
    diagnostics.problems.set("/ws/c.ts", [error(1, "From the agent's edit.")])
    expect(await turn(port, memory, diagnostics)).toBeUndefined()
    // The user edited d.ts: its errors are news even though the source never answered for it before.
    diagnostics.problems.set("/ws/d.ts", [error(4, "From the user's edit.")])
    edits.push("/ws/d.ts")
    expect(await turn(port, memory, diagnostics)).toBe(
      "<environment>\nChanged by the user since your last turn: d.ts\nNew errors since your last turn (1):\nd.ts:4: From the user's edit.\n</environment>",
    )
  })

  it("does not repeat the errors of a file the agent edited: the edit's result already named them", async () => {
    const diagnostics = new FakeDiagnostics()
    diagnostics.problems.set("/ws/a.ts", [])
    diagnostics.problems.set("/ws/b.ts", [])
    const memory = newEnvironmentMemory()
    await turn(undefined, memory, diagnostics, true)
    memory.agentEdited.add("/ws/a.ts")
    diagnostics.problems.set("/ws/a.ts", [error(1, "Introduced by the agent's edit.")])
    diagnostics.problems.set("/ws/b.ts", [error(2, "Broken by it.")])
    expect(await turn(undefined, memory, diagnostics)).toBe(
      "<environment>\nNew errors since your last turn (1):\nb.ts:2: Broken by it.\n</environment>",
    )
    expect(memory.agentEdited.size).toBe(0)
    expect(await turn(undefined, memory, diagnostics)).toBeUndefined()
  })

  it("asks an editor about its open buffers, the files the user edited and the files that had errors", async () => {
    const diagnostics = new FakeDiagnostics("asked")
    diagnostics.problems.set("/ws/open.ts", [error(1, "Was there.")])
    const memory = newEnvironmentMemory()
    const edits: string[] = []
    let open = ["/ws/open.ts"]
    const port: EnvironmentPort = { openFiles: () => open, activeFile: () => undefined, takeUserEdits: () => edits.splice(0) }
    await turn(port, memory, diagnostics, true)
    open = []
    edits.push("/ws/edited.ts")
    diagnostics.problems.set("/ws/open.ts", [error(1, "Was there."), error(2, "Appeared in a closed buffer.")])
    const text = await turn(port, memory, diagnostics)
    expect(diagnostics.asked).toEqual([["/ws/open.ts"], ["/ws/edited.ts", "/ws/open.ts"]])
    expect(text).toContain("open.ts:2: Appeared in a closed buffer.")
  })

  it("lists at most MAX_NEW_ERRORS, counts the rest, and cuts long messages", async () => {
    const diagnostics = new FakeDiagnostics()
    diagnostics.problems.set("/ws/a.ts", [])
    const memory = newEnvironmentMemory()
    await turn(undefined, memory, diagnostics, true)
    diagnostics.problems.set(
      "/ws/a.ts",
      Array.from({ length: MAX_NEW_ERRORS + 5 }, (_, i) => error(i + 1, `Error number ${i} ${"x".repeat(300)}`)),
    )
    const lines = (await turn(undefined, memory, diagnostics))!.split("\n")
    expect(lines[1]).toBe(`New errors since your last turn (${MAX_NEW_ERRORS + 5}):`)
    const listed = lines.filter((l) => l.startsWith("a.ts:"))
    expect(listed).toHaveLength(MAX_NEW_ERRORS)
    expect(Math.max(...listed.map((l) => l.length))).toBeLessThan(200)
    expect(listed[0]).toMatch(/^a\.ts:1: Error number 0 x+…$/)
    expect(lines).toContain("… and 5 more")
  })

  it("keeps what it knew when the source gives no answer in time, so nothing old is told as new afterwards", async () => {
    const diagnostics = new FakeDiagnostics()
    diagnostics.problems.set("/ws/a.ts", [error(1, "Old.")])
    const memory = newEnvironmentMemory()
    await turn(undefined, memory, diagnostics, true)
    const silent: DiagnosticsPort = { watch: async () => undefined, current: async () => undefined }
    expect(await turn(undefined, memory, silent)).toBeUndefined()
    diagnostics.problems.set("/ws/a.ts", [error(1, "Old."), error(2, "New.")])
    expect(await turn(undefined, memory, diagnostics)).toBe(
      "<environment>\nNew errors since your last turn (1):\na.ts:2: New.\n</environment>",
    )
  })
})
