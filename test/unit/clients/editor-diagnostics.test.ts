import { describe, expect, it } from "vitest"
import { editorDiagnostics, type DiagnosticLike } from "../../../clients/vscode/src/diagnostics"
import { hasNvim, runNvim } from "../../e2e/nvim-runner"
import { tempWorkspace } from "../../support/temp-workspace"

describe("agent/diagnostics in the editor clients", () => {
  it("VS Code answers with its own diagnostics per URI, severities counted from 1 and code objects unwrapped", () => {
    const byUri: Record<string, DiagnosticLike[]> = {
      "file:///w/a.ts": [
        {
          range: { start: { line: 0, character: 13 }, end: { line: 0, character: 18 } },
          message: "Type 'string' is not assignable to type 'number'.",
          severity: 0,
          source: "ts",
          code: { value: 2322 },
        },
        { range: { start: { line: 4, character: 0 }, end: { line: 4, character: 3 } }, message: "Unused.", severity: 3 },
      ],
    }
    const api = {
      languages: { getDiagnostics: (uri: { toString(): string }) => byUri[uri.toString()] ?? [] },
      Uri: { parse: (v: string) => ({ toString: () => v, fsPath: v.slice(7) }) },
    }
    expect(editorDiagnostics(api, { uris: ["file:///w/a.ts", "file:///w/b.ts"] })).toEqual({
      diagnostics: [
        {
          uri: "file:///w/a.ts",
          items: [
            {
              range: { start: { line: 0, character: 13 }, end: { line: 0, character: 18 } },
              severity: 1,
              message: "Type 'string' is not assignable to type 'number'.",
              source: "ts",
              code: 2322,
            },
            { range: { start: { line: 4, character: 0 }, end: { line: 4, character: 3 } }, severity: 4, message: "Unused." },
          ],
        },
        { uri: "file:///w/b.ts", items: [] },
      ],
    })
  })

  it.runIf(hasNvim)("Neovim answers with vim.diagnostic's problems of the loaded buffer, none for a file it has not loaded", async () => {
    const ws = await tempWorkspace({ "a.txt": "one\ntwo\n" })
    try {
      const run = await runNvim<{ result: any; other: string }>(
        `
        vim.cmd("edit a.txt")
        local ns = vim.api.nvim_create_namespace("test")
        vim.diagnostic.set(ns, 0, { { lnum = 1, col = 2, end_lnum = 1, end_col = 3, severity = vim.diagnostic.severity.WARN, message = "odd", source = "lint" } })
        local uri = vim.uri_from_bufnr(0)
        local other = vim.uri_from_fname(vim.fn.getcwd() .. "/never-opened.txt")
        local result = require("agent_lsp.diagnostics").handler(nil, { uris = { uri, other } })
        observe({ result = result, other = other })
        `,
        { cwd: ws.root },
      )
      const { result } = run.observed!
      expect(result.diagnostics[0].items).toEqual([
        { range: { start: { line: 1, character: 2 }, end: { line: 1, character: 3 } }, severity: 2, message: "odd", source: "lint" },
      ])
      expect(result.diagnostics[1]).toEqual({ uri: run.observed!.other, items: [] })
    } finally {
      await ws.cleanup()
    }
  })
})
