// The set-up hints `npm start` prints, one per editor, with this checkout's real paths. Each is a complete
// snippet a user pastes as is; test/e2e/start-hints.test.ts runs them in the real editors (Neovim, Emacs)
// and checks the Helix one parses as the languages.toml form Helix reads.
import { join } from "node:path"

/** @param {string} root the repository; @returns {{ neovim: string, emacs: string, helix: string, entry: string }} */
export function editorHints(root) {
  const entry = join(root, "dist", "agent-lsp.mjs")
  const q = (s) => JSON.stringify(s)
  const neovim = [
    `vim.opt.runtimepath:append(${q(join(root, "clients", "neovim"))})`,
    `require("agent_lsp").setup({ cmd = { "node", ${q(entry)}, "--stdio" } })`,
  ].join("\n")
  const emacs = [
    `(add-to-list 'load-path ${q(join(root, "clients", "emacs"))})`,
    `(require 'agent-lsp)`,
    `(setq agent-lsp-server-command '("node" ${q(entry)} "--stdio"))`,
  ].join("\n")
  const helix = [
    "[language-server.agent-lsp]",
    'command = "node"',
    `args = [${q(entry)}, "--stdio"]`,
    "",
    "[[language]]",
    'name = "typescript"',
    'language-servers = ["typescript-language-server", "agent-lsp"]',
  ].join("\n")
  return { neovim, emacs, helix, entry }
}

/** The whole text `npm start` prints on stderr at a terminal. */
export function startHints(root) {
  const { neovim, emacs, helix, entry } = editorHints(root)
  const indent = (text) => text.replace(/^/gm, "    ")
  return `
agent-lsp is built: ${entry}
It speaks LSP on stdin/stdout, so an editor starts it. Set ANTHROPIC_API_KEY in the editor's environment
(OPENAI_API_KEY, or none, for the openai provider). Hook it up:

  Neovim 0.7+, in init.lua (clients/neovim/README.md):
${indent(neovim)}

  Emacs 28+ with eglot, in init.el (clients/emacs/README.md):
${indent(emacs)}

  Helix, in ~/.config/helix/languages.toml, one [[language]] per language you use (clients/helix/README.md):
${indent(helix)}

  VS Code: npm run package:vscode, then install clients/vscode/agent-lsp.vsix (clients/vscode/README.md)
  Zed, JetBrains as an external agent (ACP): node ${entry} --acp   (README, "Agent Client Protocol")
  Headless, from a script: node ${entry} run "task"   (node ${entry} run --help)
  Or install the command: npm pack && npm i -g ./agent-lsp-*.tgz   (then "agent-lsp" instead of "node ${entry}")

The server is now waiting for LSP messages on stdin (Ctrl-C to stop).
`
}
