import { spawnSync } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { runEditorProcess, type EditorRun } from "./editor-process"

/** The Emacs package folder of this checkout (put on every test Emacs's load-path). */
export const EMACS_PACKAGE_DIR = resolve(import.meta.dirname, "..", "..", "clients", "emacs")

/** Whether `emacs` is on PATH with eglot loadable (Debian: `apt-get install emacs-nox elpa-eglot`). */
export const hasEmacsWithEglot = spawnSync("emacs", ["--batch", "--eval", "(require 'eglot)"], { stdio: "ignore" }).status === 0

/** How an `emacs --batch` run ended; `observed` is what the script passed to `(agent-lsp-test-observe PLIST)`. */
export type EmacsRun<T> = EditorRun<T>

/**
 * Runs `emacs --batch` in `cwd` (no init file; the site start-up that puts Debian's elpa-eglot on the
 * load-path), this checkout's
 * clients/emacs on the load-path, then the Elisp `script`. The script gets `(agent-lsp-test-observe PLIST)`
 * that writes its observations as JSON, `(agent-lsp-test-wait PRED SECONDS)` that runs the event loop
 * (process output, timers) until PRED is true, `(agent-lsp-test-wait-task-end SECONDS)` that waits for the
 * active task to complete, fail or be cancelled, and `(agent-lsp-test-task-status)`. An error in the script is
 * observed as `(:scriptError MSG)`.
 */
export async function runEmacs<T = Record<string, unknown>>(
  script: string,
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<EmacsRun<T>> {
  const dir = await mkdtemp(join(tmpdir(), "agent-lsp-emacs-"))
  const out = join(dir, "observed.json")
  const main = join(dir, "script.el")
  await writeFile(
    main,
    [
      ";;; -*- lexical-binding: t; -*-",
      "(require 'json)",
      `(add-to-list 'load-path ${JSON.stringify(EMACS_PACKAGE_DIR)})`,
      `(defun agent-lsp-test-observe (plist)`,
      `  (with-temp-file ${JSON.stringify(out)} (insert (json-encode plist))))`,
      `(defun agent-lsp-test-wait (pred seconds)`,
      `  (let ((deadline (+ (float-time) seconds)))`,
      `    (while (and (not (funcall pred)) (< (float-time) deadline))`,
      `      (accept-process-output nil 0.05))`,
      `    (funcall pred)))`,
      `(defun agent-lsp-test-task-status ()`,
      `  (plist-get (gethash agent-lsp--active-task agent-lsp--tasks) :status))`,
      `(defun agent-lsp-test-wait-task-end (seconds)`,
      `  (agent-lsp-test-wait (lambda () (member (agent-lsp-test-task-status) '("completed" "failed" "cancelled"))) seconds))`,
      `(condition-case err`,
      `    (progn`,
      script,
      `    )`,
      `  (error (agent-lsp-test-observe (list :scriptError (error-message-string err))) (kill-emacs 1)))`,
      `(kill-emacs 0)`,
    ].join("\n"),
  )
  // HOME inside the temp folder keeps the user's own init, packages and eglot state out of the test.
  const env = { ...process.env, HOME: dir, ...options.env }
  const run = await runEditorProcess<T>("emacs", ["--batch", "-l", main], {
    cwd: options.cwd,
    env,
    timeoutMs: options.timeoutMs ?? 30_000,
    observationFile: out,
  })
  await rm(dir, { recursive: true, force: true })
  // Batch Emacs prints messages on stderr and stdout alike: keep both for failure reports.
  return { ...run, stderr: run.stdout + run.stderr }
}

/** The environment of an Emacs whose agent-lsp talks to the fake Messages API at `url` (a dummy key). */
export function fakeModelEnv(url: string): NodeJS.ProcessEnv {
  return { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "sk-ant-e2e-dummy-key-0123456789" }
}

/** An apply_diff `diff` replacing `search` (starting at 1-based `startLine`) with `replace`. */
export function searchReplace(startLine: number, search: string, replace: string): string {
  return ["<<<<<<< SEARCH", `:start_line:${startLine}`, "-------", search, "=======", replace, ">>>>>>> REPLACE"].join("\n")
}
