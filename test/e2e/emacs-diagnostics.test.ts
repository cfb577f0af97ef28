import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { SERVER_ENTRY } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { fakeModelEnv, runEmacs, searchReplace } from "./emacs-runner"
import { expectBuiltServer, expectEmacsWithEglot } from "./preconditions"

// agent/diagnostics answered by the Emacs package from Flymake, as a user with a language server has it:
// a.js is managed by the real typescript-language-server through eglot (Flymake shows its type errors),
// and agent-lsp is eglot's server of the buffer the task is started from (notes.txt, text-mode), because
// eglot runs one server per major mode. The model's edit introduces a type error; the test checks that the
// tool result the model got names it, read from Emacs's own diagnostics.

const TSLS = fileURLToPath(new URL("../../node_modules/typescript-language-server/lib/cli.mjs", import.meta.url))
// Line 5 has a type error before the edit: Flymake showing it tells the test the language server is ready,
// and the model must not hear of it again.
const ORIGINAL = "// @ts-check\n/** @type {number} */\nconst total = 1\n/** @type {string} */\nconst label = 2\nconsole.log(total, label)\n"
const EDITED = ORIGINAL.replace("total = 1", 'total = "one"')

interface Observed {
  scriptError?: string
  status?: string
  buffer: string
  modified: boolean
  flymake: string[]
  jsServer: string
  notesServer: string
  messages: string
}

function script(): string {
  return `
    (require 'agent-lsp)
    (setq agent-lsp-server-command (list "node" ${JSON.stringify(SERVER_ENTRY)} "--stdio"))
    ;; settleMs: the wait after the edit before the server asks; longer than the default for a loaded CI machine.
    (setq agent-lsp-initialization-options '(:agent (:checkpoints (:enabled :json-false) :diagnostics (:settleMs 3000))))
    (setq completing-read-function (lambda (&rest _) "Allow once"))
    (find-file "a.js")
    (let ((js (current-buffer)) (project (cons 'transient default-directory)))
      ;; The user's JavaScript server, as M-x eglot starts it.
      (let ((eglot-sync-connect t))
        (eglot (list 'js-mode) project 'eglot-lsp-server
               (list "node" ${JSON.stringify(TSLS)} "--stdio") "javascript"))
      ;; Until Flymake shows the old problem: the user has had the file open a while.
      (agent-lsp-test-wait (lambda () (with-current-buffer js (flymake-diagnostics))) 40)
      ;; Both files on screen, as a user has them; the task starts from the notes.
      (select-window (split-window))
      (find-file "notes.txt")
      (let ((notes (current-buffer)))
        (agent-lsp-new-task "make total a string")
        (agent-lsp-test-wait-task-end 60)
        (agent-lsp-test-observe
         (list :status (agent-lsp-test-task-status)
               :buffer (with-current-buffer js (buffer-string))
               :modified (if (buffer-modified-p js) t :json-false)
               :flymake (vconcat (with-current-buffer js (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))
               :jsServer (with-current-buffer js (symbol-name (eieio-object-class (eglot-current-server))))
               :notesServer (with-current-buffer notes (symbol-name (eieio-object-class (eglot-current-server))))
               :messages (with-current-buffer "*Messages*" (buffer-string))))
        (with-current-buffer notes (eglot-shutdown (eglot-current-server)))
        (with-current-buffer js (eglot-shutdown (eglot-current-server)))))
  `
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

describe("Emacs answers agent/diagnostics from Flymake (emacs --batch, eglot 1.9, typescript-language-server)", () => {
  it("the type error the edit introduced, shown by Flymake through eglot, reaches the model in the tool result", async () => {
    ws = await tempWorkspace({ "a.js": ORIGINAL, "notes.txt": "Tasks for the agent.\n" })
    fake = await startFakeAnthropic([
      {
        toolCalls: [
          {
            id: "toolu_edit",
            name: "apply_diff",
            input: { path: "a.js", diff: searchReplace(3, "const total = 1", 'const total = "one"') },
          },
        ],
      },
      { toolCalls: [{ name: "attempt_completion", input: { result: "total is a string now." } }] },
    ])
    const run = await runEmacs<Observed>(script(), {
      cwd: ws.root,
      env: fakeModelEnv(fake.url),
      timeoutMs: 100_000,
    })
    const seen = run.observed
    expect(seen, `emacs wrote nothing (exit ${run.code})\n${run.stderr.slice(-3000)}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr.slice(-3000) }, null, 1)
    expect(seen!.scriptError, context).toBeUndefined()
    expect(seen!.status, context).toBe("completed")
    expect(seen!.jsServer).toBe("eglot-lsp-server")
    expect(seen!.notesServer).toBe("agent-lsp-server")
    // The edit went through the buffer, Emacs saved it, and Flymake shows the type error.
    expect(seen!.buffer, context).toBe(EDITED)
    expect(seen!.modified).toBe(false)
    expect(await readFile(ws.path("a.js"), "utf8")).toBe(EDITED)
    expect(seen!.flymake.join("\n"), context).toMatch(/Type 'string' is not assignable to type 'number'/)
    // What the model got back for the edit: the problem, with the server's own code and position.
    expect(fake.requests).toHaveLength(2)
    const result = JSON.stringify((fake.requests[1]!.body.messages as unknown[]).at(-1))
    expect(result, context).toContain("New problems after the edit:")
    expect(result).toMatch(/a\.js:3:7 error \(typescript 2322\): Type 'string' is not assignable to type 'number'\./)
    expect(run.code, run.stderr.slice(-2000)).toBe(0)
  }, 120_000)

  it("a problem from any other Flymake backend is answered with its range, severity and backend; a file no buffer visits has none", async () => {
    ws = await tempWorkspace({ "b.txt": "one\ntwo three\n" })
    const script = `
      (require 'agent-lsp)
      (find-file "b.txt")
      (defun test-backend (report &rest _)
        (save-excursion
          (goto-char (point-min))
          (search-forward "three")
          (funcall report (list (flymake-make-diagnostic (current-buffer) (match-beginning 0) (match-end 0) :warning "odd word")
                                (flymake-make-diagnostic (current-buffer) 1 4 :note "a note")))))
      (add-hook 'flymake-diagnostic-functions #'test-backend nil t)
      (flymake-mode 1)
      (flymake-start)
      (agent-lsp-test-wait (lambda () (flymake-diagnostics)) 10)
      (agent-lsp-test-observe
       (list :here (agent-lsp-diagnostics--of (eglot--path-to-uri (expand-file-name "b.txt")))
             :elsewhere (agent-lsp-diagnostics--of (eglot--path-to-uri (expand-file-name "never-opened.txt")))))
    `
    const run = await runEmacs<{ here: unknown[]; elsewhere: unknown[]; scriptError?: string }>(script, { cwd: ws.root })
    expect(run.observed, run.stderr.slice(-2000)).toBeDefined()
    expect(run.observed!.scriptError).toBeUndefined()
    const byMessage = (a: any, b: any) => String(a.message).localeCompare(String(b.message))
    expect([...run.observed!.here].sort(byMessage)).toEqual([
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } },
        severity: 3,
        message: "a note",
        source: "test-backend",
      },
      {
        range: { start: { line: 1, character: 4 }, end: { line: 1, character: 9 } },
        severity: 2,
        message: "odd word",
        source: "test-backend",
      },
    ])
    expect(run.observed!.elsewhere).toEqual([])
  }, 30_000)
})
