import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EMACS_PACKAGE_DIR } from "./emacs-runner"
import { expectEmacsWithEglot } from "./preconditions"
import { editorHints } from "../../scripts/start-hints.mjs"

// The install forms of clients/emacs/README.md, copied from the README itself (with ~/src/agent-lsp pointing
// at this checkout), each run in a fresh `emacs --batch` with an empty HOME: no init file, nothing on
// load-path but what the form puts there.

const root = resolve(EMACS_PACKAGE_DIR, "..", "..")
const readme = readFileSync(join(EMACS_PACKAGE_DIR, "README.md"), "utf8")
const install = readme.slice(readme.indexOf("## Install"), readme.indexOf("## Settings"))
const forms = [...install.matchAll(/```elisp\n([\s\S]*?)```/g)].map((m) => m[1]!.replaceAll("~/src/agent-lsp", root))
const home = mkdtempSync(join(tmpdir(), "agent-lsp-emacs-install-"))
afterAll(() => rmSync(home, { recursive: true, force: true }))

const hasUsePackage = spawnSync("emacs", ["--batch", "--eval", "(require 'use-package)"], { stdio: "ignore" }).status === 0

/** Runs `form`, then `check` (which prints a JSON value), in a fresh batch Emacs; returns what it printed. */
function runForm(form: string, check: string): { value: unknown; output: string } {
  const script = join(home, "form.el")
  writeFileSync(script, `${form}\n(princ (format "\\nRESULT %s\\n" ${check}))\n`)
  const run = spawnSync("emacs", ["--batch", "-l", script], { cwd: home, env: { ...process.env, HOME: home }, encoding: "utf8" })
  const output = `${run.stdout}${run.stderr}`
  const line = run.stdout.split("\n").find((l) => l.startsWith("RESULT "))
  return { value: line ? JSON.parse(line.slice(7)) : undefined, output }
}

const loaded = `(json-encode (list :feature (featurep 'agent-lsp) :command (commandp 'agent-lsp-new-task)
  :diagnostics (featurep 'agent-lsp-diagnostics) :mirror (featurep 'agent-lsp-mirror)))`

describe("the Emacs package's documented install forms", () => {
  beforeAll(() => {
    expectEmacsWithEglot()
  })

  it("the README documents the three tested forms and the package-vc one, and no URL", () => {
    expect(forms).toHaveLength(4)
    expect(forms[0]).toContain("(require 'agent-lsp)")
    expect(forms[1]).toContain("(use-package agent-lsp")
    expect(forms[2]).toMatch(/^\(load "/)
    expect(forms[3]).toContain("package-vc-install-from-checkout")
    expect(install).not.toMatch(/https?:\/\//)
  })

  it("add-to-list load-path + require loads the whole package", () => {
    const { value, output } = runForm(`(require 'json)\n${forms[0]}`, loaded)
    expect(value, output).toEqual({ feature: true, command: true, diagnostics: true, mirror: true })
  })

  it("the Emacs hint npm start prints loads the package, and its server command runs the built server", () => {
    const hints = editorHints(root)
    const check = `(json-encode (list :feature (featurep 'agent-lsp) :command (commandp 'agent-lsp-new-task)
      :server (with-temp-buffer (apply #'call-process (car agent-lsp-server-command) nil t nil
        (append (butlast (cdr agent-lsp-server-command)) '("--version"))) (string-trim (buffer-string)))))`
    const { value, output } = runForm(`(require 'json)\n(require 'subr-x)\n${hints.emacs}`, check)
    expect(value, output).toEqual({ feature: true, command: true, server: expect.stringMatching(/^\d+\.\d+\.\d+/) })
  })

  it("a plain load of agent-lsp.el finds the package's other files", () => {
    const { value, output } = runForm(`(require 'json)\n${forms[2]}`, loaded)
    expect(value, output).toEqual({ feature: true, command: true, diagnostics: true, mirror: true })
  })

  it("use-package :load-path defers loading to the first command, then loads it all", () => {
    expect(hasUsePackage, "use-package is not installed (apt-get install -y elpa-use-package)").toBe(true)
    const check = `(json-encode (list :deferred (and (autoloadp (symbol-function 'agent-lsp-new-task)) (not (featurep 'agent-lsp)) t)
      :loads (progn (autoload-do-load (symbol-function 'agent-lsp-new-task)) (featurep 'agent-lsp-diagnostics))
      ;; :custom takes effect when the defcustom is loaded.
      :custom agent-lsp-initialization-options))`
    const { value, output } = runForm(`(require 'json)\n(require 'use-package)\n${forms[1]}`, check)
    expect(value, output).toEqual({ deferred: true, loads: true, custom: { agent: { modes: { default: "code" } } } })
  })
})
