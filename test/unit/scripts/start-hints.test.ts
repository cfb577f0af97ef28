import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { parse } from "smol-toml"
import { describe, expect, it } from "vitest"
import { editorHints, startHints } from "../../../scripts/start-hints.mjs"

// Helix cannot be installed here: its hint is checked for the form Helix 25.07 reads (a language server
// with command + args, attached to a language after that language's own servers). The Neovim and Emacs
// hints run in the real editors (test/e2e/neovim-install.test.ts, test/e2e/emacs-install.test.ts).
const root = fileURLToPath(new URL("../../..", import.meta.url))

describe("npm start's hints", () => {
  it("gives Helix a languages.toml that parses, runs node on the built server with --stdio, and attaches it", () => {
    const { helix, entry } = editorHints(root)
    const toml = parse(helix) as {
      "language-server": Record<string, { command: string; args: string[] }>
      language: { name: string; "language-servers": string[] }[]
    }
    expect(toml["language-server"]["agent-lsp"]).toEqual({ command: "node", args: [entry, "--stdio"] })
    expect(toml.language[0]).toEqual({ name: "typescript", "language-servers": ["typescript-language-server", "agent-lsp"] })
  })

  it("prints real paths, never an elided one, and points at files that exist", () => {
    const text = startHints(root)
    expect(text).not.toMatch(/\.\.\.\/|…\//)
    const { entry } = editorHints(root)
    expect(text).toContain(entry)
    for (const dir of ["clients/neovim", "clients/emacs"]) {
      expect(text).toContain(`${root}${dir}`.replace(/\/\//g, "/"))
      expect(existsSync(`${root}${dir}`)).toBe(true)
    }
  })
})
