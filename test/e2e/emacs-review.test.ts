import { readFile } from "node:fs/promises"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { SERVER_ENTRY } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { fakeModelEnv, runEmacs } from "./emacs-runner"
import { expectBuiltServer, expectEmacsWithEglot } from "./preconditions"

// The review in a real Emacs (batch, eglot 1.9): M-x agent-lsp-review shows a diff-mode buffer of the task,
// k keeps the hunk at point and r rejects it, through the built server.

const ORIGINAL = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n"
const EDITED = ORIGINAL.replace("line 2\n", "line 2 by agent\n").replace("line 10\n", "line 10 by agent\n")

interface Observed {
  scriptError?: string
  status?: string
  mode: string
  review: string
  after: string
  buffer: string
}

let ws: TempWorkspace | undefined
let fake: FakeAnthropic | undefined

beforeAll(() => {
  expectEmacsWithEglot()
  expectBuiltServer()
})
afterEach(async () => {
  await fake?.close()
  await ws?.cleanup()
})

describe("Emacs review (batch Emacs, eglot, built server, fake model)", () => {
  it("shows the task's hunks in a diff-mode buffer, keeps one and rejects the other at point", async () => {
    ws = await tempWorkspace({ "a.txt": ORIGINAL })
    fake = await startFakeAnthropic([
      { toolCalls: [{ name: "write_to_file", input: { path: "a.txt", content: EDITED } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
    ])
    const script = `
      (require 'agent-lsp)
      (setq agent-lsp-server-command (list "node" ${JSON.stringify(SERVER_ENTRY)} "--stdio"))
      (setq agent-lsp-initialization-options '(:agent (:checkpoints (:enabled :json-false) :autoApprove (:write t))))
      (find-file "a.txt")
      (let ((source (current-buffer)) review-text)
        (agent-lsp-new-task "edit lines 2 and 10")
        (agent-lsp-test-wait-task-end 45)
        (sleep-for 0.5)
        (agent-lsp-review)
        (agent-lsp-test-wait (lambda () (and (get-buffer "*agent-lsp review*")
                                             (with-current-buffer "*agent-lsp review*" (string-match-p "line 10 by agent" (buffer-string)))))
                             10)
        (with-current-buffer "*agent-lsp review*"
          (setq review-text (buffer-string))
          (goto-char (point-min))
          (search-forward "+line 2 by agent")
          (agent-lsp-review-keep)
          (agent-lsp-test-wait (lambda () (not (string-match-p "line 2 by agent" (buffer-string)))) 10)
          (goto-char (point-min))
          (search-forward "+line 10 by agent")
          (agent-lsp-review-reject)
          (agent-lsp-test-wait (lambda () (string-match-p "nothing left to review" (buffer-string))) 10))
        (agent-lsp-test-wait (lambda () (with-current-buffer source (string-match-p "^line 10$" (buffer-string)))) 5)
        (agent-lsp-test-observe
         (list :status (agent-lsp-test-task-status)
               :mode (with-current-buffer "*agent-lsp review*" (symbol-name major-mode))
               :review review-text
               :after (with-current-buffer "*agent-lsp review*" (buffer-string))
               :buffer (with-current-buffer source (buffer-string)))))
    `
    const run = await runEmacs<Observed>(script, { cwd: ws.root, env: fakeModelEnv(fake.url), timeoutMs: 90_000 })
    const seen = run.observed
    expect(seen, `emacs wrote nothing (exit ${run.code})\n${run.stderr}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr.slice(-3000) }, null, 1)
    expect(seen!.scriptError, context).toBeUndefined()
    expect(seen!.status, context).toBe("completed")
    expect(seen!.mode).toBe("agent-lsp-review-mode")
    expect(seen!.review).toContain(
      "--- a/a.txt\n+++ b/a.txt\n@@ -2,1 +2,1 @@\n-line 2\n+line 2 by agent\n@@ -10,1 +10,1 @@\n-line 10\n+line 10 by agent\n",
    )
    expect(seen!.after).toContain("nothing left to review")
    const expected = ORIGINAL.replace("line 2\n", "line 2 by agent\n")
    expect(seen!.buffer).toBe(expected)
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe(expected)
  }, 120_000)
})
