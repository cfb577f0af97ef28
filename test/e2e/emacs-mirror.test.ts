import { readFile } from "node:fs/promises"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { SERVER_ENTRY } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { fakeModelEnv, runEmacs, searchReplace } from "./emacs-runner"
import { expectBuiltServer, expectEmacsWithEglot } from "./preconditions"

// A file open in Emacs in another major mode than agent-lsp's (eglot tells agent-lsp only about its own
// mode's buffers; agent-lsp-mirror.el tells it about the rest), holding unsaved changes of the user's. The
// agent's edit must go through that buffer, keep the user's change, and leave the disk alone when the user
// declines to save: nothing is written behind the buffer.

const ORIGINAL = "const greeting = 'hello'\nconst name = 'world'\n"
const BOTH = "const greeting = 'hello there'\nconst name = 'everyone'\n"

interface Observed {
  scriptError?: string
  status?: string
  buffer: string
  modified: boolean
  prompts: string[]
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

describe("Emacs: files open in another major mode (emacs --batch, eglot 1.9)", () => {
  it("an edit to a buffer with the user's unsaved change goes through the buffer and keeps it; declining to save leaves the disk alone", async () => {
    ws = await tempWorkspace({ "a.js": ORIGINAL, "notes.txt": "Tasks.\n" })
    fake = await startFakeAnthropic([
      {
        toolCalls: [
          {
            id: "toolu_edit",
            name: "apply_diff",
            input: { path: "a.js", diff: searchReplace(1, "const greeting = 'hello'", "const greeting = 'hello there'") },
          },
        ],
      },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Greeting changed." } }] },
    ])
    const script = `
      (require 'agent-lsp)
      (setq agent-lsp-server-command (list "node" ${JSON.stringify(SERVER_ENTRY)} "--stdio"))
      (setq agent-lsp-initialization-options '(:agent (:checkpoints (:enabled :json-false))))
      (defvar test-prompts nil)
      ;; The user approves the edit, then declines to save the file that also holds their own change.
      (setq completing-read-function
            (lambda (prompt collection &rest _)
              (push prompt test-prompts)
              (if (member "Allow once" (append collection nil)) "Allow once" "Don't save")))
      (find-file "a.js")
      (let ((js (current-buffer)))
        ;; The user's own change, not saved; no language server manages a.js.
        (goto-char (point-min))
        (search-forward "'world'")
        (replace-match "'everyone'")
        (select-window (split-window))
        (find-file "notes.txt")
        (agent-lsp-new-task "change hello to hello there")
        (agent-lsp-test-wait-task-end 45)
        (agent-lsp-test-observe
         (list :status (agent-lsp-test-task-status)
               :buffer (with-current-buffer js (buffer-string))
               :modified (if (buffer-modified-p js) t :json-false)
               :prompts (vconcat (reverse test-prompts))))
        (eglot-shutdown (eglot-current-server)))
    `
    const run = await runEmacs<Observed>(script, {
      cwd: ws.root,
      env: fakeModelEnv(fake.url),
      timeoutMs: 60_000,
    })
    const seen = run.observed
    expect(seen, `emacs wrote nothing (exit ${run.code})\n${run.stderr.slice(-3000)}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr.slice(-3000) }, null, 1)
    expect(seen!.scriptError, context).toBeUndefined()
    expect(seen!.status, context).toBe("completed")
    // The agent's edit is in the buffer beside the user's change; the buffer stays unsaved.
    expect(seen!.buffer, context).toBe(BOTH)
    expect(seen!.modified).toBe(true)
    // Asked to approve, then whether to save (the user's change would be saved too): declined, so the disk is untouched.
    expect(seen!.prompts).toHaveLength(2)
    expect(await readFile(ws.path("a.js"), "utf8")).toBe(ORIGINAL)
    const result = JSON.stringify((fake.requests[1]!.body.messages as unknown[]).at(-1))
    expect(result).toContain("the file on disk is stale")
  }, 90_000)
})
