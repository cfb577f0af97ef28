import type { Connection, PublishDiagnosticsParams } from "vscode-languageserver/node"
import { describe, expect, it } from "vitest"
import { PublishedDiagnostics } from "../../../../server/src/fronts/lsp/published-diagnostics"
import { ReviewDiagnostics } from "../../../../server/src/fronts/lsp/review-front"

const file = (uri: string, hunkIds: string[], startLine = 1) => ({
  uri,
  status: "modified" as const,
  byCommand: false,
  hunks: hunkIds.map((hunkId, i) => ({
    hunkId,
    range: { start: { line: startLine + 10 * i, character: 0 }, end: { line: startLine + 10 * i + 1, character: 0 } },
    oldText: "old\n",
    newText: "new\n",
  })),
})

describe("the review's hint diagnostics", () => {
  it("publishes only the files whose hunks changed since the last refresh, and clears a file that left the review", () => {
    const sent: PublishDiagnosticsParams[] = []
    const connection = { sendDiagnostics: async (p: PublishDiagnosticsParams) => void sent.push(p) } as unknown as Connection
    const shown = new ReviewDiagnostics(new PublishedDiagnostics(connection))
    const files = [file("file:///w/a.ts", ["h1", "h2"]), file("file:///w/b.ts", ["h3"]), file("file:///w/c.ts", ["h4"])]
    shown.show("t1", "task", files)
    expect(sent.map((p) => p.uri)).toEqual(["file:///w/a.ts", "file:///w/b.ts", "file:///w/c.ts"])

    sent.length = 0
    shown.show("t1", "task", files)
    expect(sent).toEqual([])

    // One hunk of b.ts moved down (the user typed above it), c.ts was reviewed.
    shown.show("t1", "task", [files[0]!, file("file:///w/b.ts", ["h3"], 5)])
    expect(sent.map((p) => [p.uri, p.diagnostics.map((d) => d.range.start.line)])).toEqual([
      ["file:///w/c.ts", []],
      ["file:///w/b.ts", [5]],
    ])

    // A renamed task shows its new title on every file.
    sent.length = 0
    shown.show("t1", "renamed task", [files[0]!])
    expect(sent.map((p) => p.uri).sort()).toEqual(["file:///w/a.ts", "file:///w/b.ts"])
    expect(sent.find((p) => p.uri === "file:///w/a.ts")!.diagnostics[0]!.message).toContain('"renamed task"')
  })
})
