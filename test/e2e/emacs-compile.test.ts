import { spawnSync } from "node:child_process"
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { EMACS_PACKAGE_DIR } from "./emacs-runner"
import { expectEmacsWithEglot } from "./preconditions"

// The package byte-compiles in Emacs 28 with eglot 1.9 and no warning at all (undefined functions,
// free variables, unknown specializers, docstring layout), as a package archive would compile it.
describe("clients/emacs byte-compiles", () => {
  it("compiles every file with byte-compile-error-on-warn", () => {
    expectEmacsWithEglot()
    const dir = mkdtempSync(join(tmpdir(), "agent-lsp-elc-"))
    try {
      cpSync(EMACS_PACKAGE_DIR, dir, { recursive: true })
      const files = readdirSync(dir).filter((f) => f.endsWith(".el"))
      expect(files).toEqual(
        expect.arrayContaining([
          "agent-lsp.el",
          "agent-lsp-ask.el",
          "agent-lsp-edits.el",
          "agent-lsp-transcript.el",
          "agent-lsp-server.el",
          "agent-lsp-diagnostics.el",
          "agent-lsp-language.el",
          "agent-lsp-mirror.el",
          "agent-lsp-review.el",
        ]),
      )
      const run = spawnSync(
        "emacs",
        ["--batch", "-L", ".", "--eval", "(setq byte-compile-error-on-warn t)", "-f", "batch-byte-compile", ...files],
        { cwd: dir, encoding: "utf8" },
      )
      expect(run.status, run.stderr).toBe(0)
      expect(readdirSync(dir).filter((f) => f.endsWith(".elc")).length).toBe(files.length)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
