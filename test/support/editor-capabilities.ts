import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { fillAgentCapabilities } from "../../clients/vscode/src/startup"
import { runEmacs } from "../e2e/emacs-runner"
import { runNvim } from "../e2e/nvim-runner"

/**
 * The `initialize` capabilities real editors send with agent-lsp's clients, taken from the editors' own
 * code rather than written by hand, so a test client never declares more than the editor it stands for.
 */
export type ClientCapabilities = Record<string, any>

/**
 * What the installed Neovim (Debian's 0.7.2 here) sends with the agent-lsp plugin: the plugin's
 * `capabilities()` (vim.lsp.protocol.make_client_capabilities() plus experimental.agent), encoded with
 * vim.json.encode as Neovim's RPC does. Neovim 0.7.2 declares `window.showDocument.support = false` and no
 * `workspace.configuration`.
 */
export async function neovimCapabilities(): Promise<ClientCapabilities> {
  const run = await runNvim<{ capabilities: ClientCapabilities }>(
    `observe({ capabilities = require("agent_lsp.client").capabilities() })`,
    {
      cwd: tmpdir(),
    },
  )
  if (!run.observed?.capabilities) throw new Error(`nvim did not report its capabilities (exit ${run.code}): ${run.stderr}`)
  return run.observed.capabilities
}

/**
 * What plain eglot sends (Debian's elpa-eglot 1.9 on Emacs 28 here; no clients/emacs): its own
 * `eglot-client-capabilities`, for a local project (its one question about the server, whether the project is
 * remote, answered "no"), JSON-encoded. eglot declares no `window` capabilities at all.
 */
export async function eglotCapabilities(): Promise<ClientCapabilities> {
  const run = await runEmacs<{ capabilities: ClientCapabilities }>(
    `(require 'eglot)
     (cl-letf (((symbol-function 'eglot--trampish-p) (lambda (_server) nil)))
       (agent-lsp-test-observe (list :capabilities (eglot-client-capabilities nil))))`,
    { cwd: tmpdir() },
  )
  if (!run.observed?.capabilities) throw new Error(`emacs did not report eglot's capabilities (exit ${run.code}): ${run.stderr}`)
  return run.observed.capabilities
}

/**
 * What VS Code sends with the agent-lsp extension: vscode-languageclient's own capabilities (the version the
 * extension bundles, from node_modules) plus the extension's feature (`fillAgentCapabilities`). The library
 * is loaded with an inert stand-in for the `vscode` module, which only the editor provides: none of its
 * capability code reads the editor (checked for vscode-languageclient 11.0.0), only the client's version
 * check does, so the stand-in reports VS Code 1.100.3 (code-server 4.100.3, the e2e tests' VS Code).
 */
export function vscodeCapabilities(): ClientCapabilities {
  const require = createRequire(import.meta.url)
  const Module = require("node:module") as { _resolveFilename: (request: string, ...rest: unknown[]) => string }
  const standIn = "agent-lsp-test:vscode"
  // A function target, so that the library may call, construct and extend (class … extends) what it reads.
  const anything = (): object => new Proxy(function inert() {}, inert)
  const inert: ProxyHandler<object> = { get: (_, key) => (key === "then" ? undefined : anything()), apply: anything, construct: anything }
  const vscode = new Proxy({}, { get: (target, key) => (key === "version" ? "1.100.3" : inert.get!(target, key, target)) })
  const resolve = Module._resolveFilename
  require.cache[standIn] = { id: standIn, filename: standIn, loaded: true, exports: vscode } as NodeJS.Module
  Module._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === "vscode" ? standIn : resolve.call(this, request, ...rest)
  }
  try {
    const { LanguageClient } = require("vscode-languageclient/node") as {
      LanguageClient: new (id: string, name: string, server: object, client: object) => { computeClientCapabilities(): ClientCapabilities }
    }
    const capabilities = new LanguageClient("agentLsp", "agent-lsp", { command: "agent-lsp" }, {}).computeClientCapabilities()
    fillAgentCapabilities(capabilities)
    return capabilities
  } finally {
    Module._resolveFilename = resolve
    delete require.cache[standIn]
  }
}
