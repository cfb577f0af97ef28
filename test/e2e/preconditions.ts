import { existsSync } from "node:fs"
import { expect } from "vitest"
import { SERVER_ENTRY } from "../support/server-harness"
import { hasEmacsWithEglot } from "./emacs-runner"

/**
 * What the editor suites need before they start, failed with how to get it (CI installs and builds
 * everything: .ci/run). Called from beforeAll.
 */

/** The built server the editors start (dist/agent-lsp.mjs). */
export function expectBuiltServer(): void {
  expect(existsSync(SERVER_ENTRY), `${SERVER_ENTRY} is missing: run npm run build`).toBe(true)
}

/** Emacs with eglot on PATH. */
export function expectEmacsWithEglot(): void {
  expect(hasEmacsWithEglot, "emacs with eglot is not installed (apt-get install -y emacs-nox elpa-eglot)").toBe(true)
}
