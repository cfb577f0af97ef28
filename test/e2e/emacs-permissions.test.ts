import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { SERVER_ENTRY } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { runEmacs } from "./emacs-runner"
import { expectPlanThenAcceptEdits, SWITCH_REPLIES } from "./permission-switch"
import { expectBuiltServer, expectEmacsWithEglot } from "./preconditions"

// M-x agent-lsp-set-permission-mode in a real Emacs (batch, eglot; the package from this checkout declares
// its own capabilities through eglot; the built server; the fake model): the choice at the minibuffer and
// the argument form reach the server (agent/setPermissionMode: the next task runs under it), and the
// transcript's header line shows the permission mode beside the mode.

interface Observed {
  scriptError?: string
  prompts: string[]
  first: { status?: string; header: string }
  second: { status?: string; header: string }
  messages: string
}

let ws: TempWorkspace
let fake: FakeAnthropic

beforeAll(() => {
  expectEmacsWithEglot()
  expectBuiltServer()
})
afterEach(async () => {
  await fake?.close()
  await ws?.cleanup()
})

const SCRIPT = `
  (require 'agent-lsp)
  (setq agent-lsp-server-command (list "node" ${JSON.stringify(SERVER_ENTRY)} "--stdio"))
  (setq agent-lsp-initialization-options '(:agent (:checkpoints (:enabled :json-false))))
  (defvar test-prompts nil)
  ;; The user at the minibuffer: "plan" for the permission mode; anything else (an approval) is recorded and refused.
  (setq completing-read-function
        (lambda (prompt &rest _)
          (push prompt test-prompts)
          (if (string-prefix-p "Permission mode" prompt) "plan" "Reject")))
  (defun test-said (text)
    (agent-lsp-test-wait (lambda () (with-current-buffer "*Messages*" (save-excursion (goto-char (point-min)) (search-forward text nil t)))) 15))
  (defun test-run-task (text)
    (let ((before agent-lsp--active-task))
      (agent-lsp-new-task text)
      ;; The task's id comes back asynchronously.
      (agent-lsp-test-wait (lambda () (not (equal agent-lsp--active-task before))) 30))
    (agent-lsp-test-wait-task-end 45)
    (let ((transcript (agent-lsp-transcript-buffer agent-lsp--active-task)))
      ;; The modes come from agent/getTask right after the task started.
      (agent-lsp-test-wait (lambda () (with-current-buffer transcript (plist-get agent-lsp-transcript--state :permission-mode))) 5)
      (list :status (agent-lsp-test-task-status)
            :header (with-current-buffer transcript (agent-lsp-transcript--header)))))
  (find-file "a.txt")
  (call-interactively #'agent-lsp-set-permission-mode)
  (unless (test-said "new tasks run in permission mode plan") (error "no answer to agent-lsp-set-permission-mode"))
  (let ((first (test-run-task "write b.txt")))
    (agent-lsp-set-permission-mode "acceptEdits")
    (unless (test-said "new tasks run in permission mode acceptEdits") (error "no answer to the argument form"))
    (let ((second (test-run-task "write c.txt")))
      (agent-lsp-test-observe
       (list :prompts (vconcat (reverse test-prompts))
             :first first
             :second second
             :messages (with-current-buffer "*Messages*" (buffer-string))))))
  (with-current-buffer "a.txt" (when (eglot-current-server) (eglot-shutdown (eglot-current-server))))
`

describe("agent-lsp-set-permission-mode in Emacs", () => {
  it("sets the permission mode from the minibuffer and from an argument; the next task runs under it and the header shows it beside the mode", async () => {
    ws = await tempWorkspace({ "a.txt": "hello\n" })
    fake = await startFakeAnthropic(SWITCH_REPLIES)
    const run = await runEmacs<Observed>(SCRIPT, {
      cwd: ws.root,
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-e2e-dummy-key-0123456789" },
      timeoutMs: 120_000,
    })
    const seen = run.observed
    expect(seen, `emacs wrote nothing (exit ${run.code})\n${run.stderr}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr }, null, 1)
    expect(seen!.scriptError, context).toBeUndefined()
    // Only the permission prompt was shown: plan refused the edit without asking, acceptEdits ran it unasked.
    expect(seen!.prompts, context).toEqual(["Permission mode for new tasks: "])
    expect(seen!.first, context).toEqual({ status: "completed", header: " agent: completed · code · plan" })
    expect(seen!.second, context).toEqual({ status: "completed", header: " agent: completed · code · acceptEdits" })
    expectPlanThenAcceptEdits(ws, fake)
    expect(run.code, run.stderr).toBe(0)
  }, 150_000)
})
