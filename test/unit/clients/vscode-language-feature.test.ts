import { describe, expect, it } from "vitest"
import { languageFeature, toLsp } from "../../../clients/vscode/src/language-feature"

// Shaped like vscode's own classes: state in private fields behind getters, 0-based SymbolKind.
class Position {
  constructor(
    private readonly _line: number,
    private readonly _character: number,
  ) {}
  get line() {
    return this._line
  }
  get character() {
    return this._character
  }
}
class Range {
  private readonly _start: Position
  private readonly _end: Position
  constructor(a: number, b: number, c: number, d: number) {
    this._start = new Position(a, b)
    this._end = new Position(c, d)
  }
  get start() {
    return this._start
  }
  get end() {
    return this._end
  }
}
class Uri {
  constructor(private readonly value: string) {}
  get scheme() {
    return "file"
  }
  get fsPath() {
    return this.value.slice(7)
  }
  toString() {
    return this.value
  }
}
class TextEdit {
  constructor(
    private readonly _range: Range,
    private readonly _newText: string,
  ) {}
  get range() {
    return this._range
  }
  get newText() {
    return this._newText
  }
}
class MarkdownString {
  #value: string
  constructor(value: string) {
    this.#value = value
  }
  get value() {
    return this.#value
  }
}

describe("the VS Code extension's answers to agent/languageFeature", () => {
  it("turns vscode's Locations, symbols (0-based kinds) and hovers into LSP JSON", () => {
    const uri = new Uri("file:///w/a.ts")
    expect(toLsp([{ uri, range: new Range(1, 2, 1, 5) }])).toEqual([
      { uri: "file:///w/a.ts", range: { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } } },
    ])
    const symbol = { name: "f", detail: "", kind: 11, range: new Range(0, 0, 2, 1), selectionRange: new Range(0, 9, 0, 10), children: [] }
    expect(toLsp([symbol])).toEqual([
      {
        name: "f",
        detail: "",
        kind: 12,
        range: { start: { line: 0, character: 0 }, end: { line: 2, character: 1 } },
        selectionRange: { start: { line: 0, character: 9 }, end: { line: 0, character: 10 } },
        children: [],
      },
    ])
    expect(toLsp([{ contents: [new MarkdownString("```ts\nfunction f(): void\n```")] }])).toEqual([
      { contents: [{ value: "```ts\nfunction f(): void\n```" }] },
    ])
  })

  it("answers rename with the WorkspaceEdit's text edits as `changes`", async () => {
    const uri = new Uri("file:///w/a.ts")
    const edit = { size: 1, entries: () => [[uri, [new TextEdit(new Range(0, 9, 0, 10), "g")]]] }
    const calls: unknown[][] = []
    const vscode = {
      commands: { executeCommand: async (...args: unknown[]) => (calls.push(args), edit) as any },
      Uri: { parse: (value: string) => new Uri(value) },
      Position,
    }
    const answer = await languageFeature(vscode, {
      operation: "rename",
      uri: "file:///w/a.ts",
      position: { line: 0, character: 9 },
      newName: "g",
    })
    expect(calls[0]![0]).toBe("vscode.executeDocumentRenameProvider")
    expect(answer).toEqual({
      changes: { "file:///w/a.ts": [{ range: { start: { line: 0, character: 9 }, end: { line: 0, character: 10 } }, newText: "g" }] },
    })
  })

  it("answers hover with one LSP Hover holding every provider's parts, where VS Code gives one Hover per provider", async () => {
    const hovers = [
      {
        contents: [new MarkdownString("\n```typescript\nfunction f(): void\n```\n"), new MarkdownString("Does f.")],
        range: new Range(0, 9, 0, 10),
      },
      { contents: ["plain markdown", { language: "ts", value: "let x: number" }] },
    ]
    const calls: unknown[][] = []
    const vscode = {
      commands: { executeCommand: async (...args: unknown[]) => (calls.push(args), hovers) as any },
      Uri: { parse: (value: string) => new Uri(value) },
      Position,
    }
    const answer = await languageFeature(vscode, { operation: "hover", uri: "file:///w/a.ts", position: { line: 0, character: 9 } })
    expect(calls[0]![0]).toBe("vscode.executeHoverProvider")
    expect(answer).toEqual({
      contents: ["\n```typescript\nfunction f(): void\n```\n", "Does f.", "plain markdown", { language: "ts", value: "let x: number" }],
      range: { start: { line: 0, character: 9 }, end: { line: 0, character: 10 } },
    })
    // A position no provider says anything about: no hover, as LSP's null.
    hovers.length = 0
    expect(await languageFeature(vscode, { operation: "hover", uri: "file:///w/a.ts", position: { line: 5, character: 0 } })).toBeNull()
  })

  it("answers null when no provider gives anything for the file", async () => {
    const vscode = { commands: { executeCommand: async () => undefined as any }, Uri: { parse: (v: string) => new Uri(v) }, Position }
    expect(await languageFeature(vscode, { operation: "hover", uri: "file:///w/a.py", position: { line: 0, character: 0 } })).toBeNull()
  })
})
