import { readFile } from "node:fs/promises"
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { SERVER_ENTRY } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { runEmacs } from "./emacs-runner"
import { expectBuiltServer, expectEmacsWithEglot } from "./preconditions"

// End to end in a real Emacs (Debian's 28.2 + elpa-eglot 1.9 in CI, batch mode): the agent-lsp package
// from this checkout loaded with add-to-list + require alone, the built server, the fake Messages API.
// The approval is answered through the package's own UI: `completing-read-function` stands in for the
// user at the minibuffer and records what was on screen when it was asked.

interface Prompt {
  prompt: string
  options: string[]
  preview: string
  previewShown: boolean
}

interface Observed {
  scriptError?: string
  blockedUntilTask: boolean
  taskId?: string
  status?: string
  buffer: string
  modified: boolean
  prompts: Prompt[]
  transcript: string
  transcriptHeader: string
  managedByAgent: boolean
  messages: string
}

const ORIGINAL = "const greeting = 'hello'\nconsole.log(greeting)\n"
const EDITED = "const greeting = 'hello there'\nconsole.log(greeting)\n"

/** Open a.js, start a task with M-x agent-lsp-new-task (no eglot running yet), answer with `choice`. */
function scenario(choice: string, feedback: string): string {
  return `
    (require 'agent-lsp)
    (setq agent-lsp-server-command (list "node" ${JSON.stringify(SERVER_ENTRY)} "--stdio"))
    (setq agent-lsp-initialization-options '(:agent (:checkpoints (:enabled :json-false))))
    (defvar test-prompts nil)
    (setq completing-read-function
          (lambda (prompt collection &rest _)
            (let ((preview (get-buffer "*agent-lsp approval*")))
              (push (list :prompt prompt :options (vconcat collection)
                          :preview (if preview (with-current-buffer preview (buffer-string)) "")
                          :previewShown (if (and preview (get-buffer-window preview t)) t :json-false))
                    test-prompts))
            ${JSON.stringify(choice)}))
    (advice-add 'read-string :override (lambda (&rest _) ${JSON.stringify(feedback)}))
    (find-file "a.js")
    (let ((source (current-buffer)))
      (agent-lsp-new-task "change hello to hello there")
      ;; The command returns before the server has even started: nothing waited on it.
      (let ((blocked (and agent-lsp--active-task t)))
        (agent-lsp-test-wait-task-end 45)
        (let* ((task-id agent-lsp--active-task)
               (transcript (and task-id (agent-lsp-transcript-buffer task-id))))
          (agent-lsp-test-observe
           (list :blockedUntilTask (if blocked t :json-false)
                 :taskId task-id
                 :status (plist-get (gethash task-id agent-lsp--tasks) :status)
                 :buffer (with-current-buffer source (buffer-string))
                 :modified (if (buffer-modified-p source) t :json-false)
                 :managedByAgent (if (with-current-buffer source (cl-typep (eglot-current-server) 'agent-lsp-server)) t :json-false)
                 :prompts (vconcat (reverse test-prompts))
                 :transcript (if transcript (with-current-buffer transcript (buffer-string)) "")
                 :transcriptHeader (if transcript (with-current-buffer transcript (agent-lsp-transcript--header)) "")
                 :messages (with-current-buffer "*Messages*" (buffer-string)))))
        (with-current-buffer source (eglot-shutdown (eglot-current-server)))))
  `
}

const diff = [
  "<<<<<<< SEARCH",
  ":start_line:1",
  "-------",
  "const greeting = 'hello'",
  "=======",
  "const greeting = 'hello there'",
  ">>>>>>> REPLACE",
].join("\n")

let ws: TempWorkspace
let fake: FakeAnthropic

beforeAll(() => {
  expectEmacsWithEglot()
  expectBuiltServer()
})
beforeEach(async () => {
  ws = await tempWorkspace({ "a.js": ORIGINAL })
})
afterEach(async () => {
  await fake?.close()
  await ws.cleanup()
})

function env(): NodeJS.ProcessEnv {
  return { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-e2e-dummy-key-0123456789" }
}

describe("Emacs package end to end (emacs --batch, eglot 1.9, built server, fake model)", () => {
  it("starts eglot itself, shows the diff before asking, applies the approved edit and saves it: buffer and disk agree", async () => {
    fake = await startFakeAnthropic([
      { text: "Reading the file first.", toolCalls: [{ name: "read_file", input: { path: "a.js" } }] },
      { toolCalls: [{ name: "apply_diff", input: { path: "a.js", diff } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Greeting changed." } }] },
    ])
    const run = await runEmacs<Observed>(scenario("Allow once", ""), { cwd: ws.root, env: env(), timeoutMs: 60_000 })
    const seen = run.observed
    expect(seen, `emacs wrote nothing (exit ${run.code})\n${run.stderr}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr.slice(-3000) }, null, 1)
    expect(seen!.scriptError, context).toBeUndefined()
    expect(seen!.blockedUntilTask, "agent-lsp-new-task returned before the task existed").toBe(false)
    expect(seen!.status, context).toBe("completed")
    expect(seen!.managedByAgent).toBe(true)
    expect(seen!.buffer).toBe(EDITED)
    expect(seen!.modified, "the buffer was saved by Emacs").toBe(false)
    expect(await readFile(ws.path("a.js"), "utf8")).toBe(EDITED)
    expect(seen!.prompts, context).toHaveLength(1)
    const [approval] = seen!.prompts
    expect(approval!.options).toEqual(expect.arrayContaining(["Allow once", "Reject"]))
    expect(approval!.previewShown, "the diff window was on screen while completing-read asked").toBe(true)
    expect(approval!.preview).toContain("-const greeting = 'hello'")
    expect(approval!.preview).toContain("+const greeting = 'hello there'")
    expect(seen!.messages, "eglot did not ask a second time").not.toMatch(/Proceed\?/)
    expect(seen!.transcript).toContain("Reading the file first.")
    expect(seen!.transcript).toMatch(/\*\*apply_diff\*\* `a\.js`/)
    expect(seen!.transcript).toContain("## Completed")
    expect(seen!.transcript).toContain("Greeting changed.")
    expect(seen!.transcriptHeader).toMatch(/agent: completed/)
    expect(run.code, run.stderr).toBe(0)
    expect(fake.requests).toHaveLength(3)
  }, 90_000)

  it("rejecting in the approval UI leaves buffer and disk unchanged and sends the user's reason to the model", async () => {
    fake = await startFakeAnthropic([
      { toolCalls: [{ name: "apply_diff", input: { path: "a.js", diff } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Left it alone." } }] },
    ])
    const run = await runEmacs<Observed>(scenario("Reject", "keep the greeting"), { cwd: ws.root, env: env(), timeoutMs: 60_000 })
    const seen = run.observed
    expect(seen, `emacs wrote nothing (exit ${run.code})\n${run.stderr}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr.slice(-3000) }, null, 1)
    expect(seen!.status, context).toBe("completed")
    expect(seen!.buffer).toBe(ORIGINAL)
    expect(seen!.modified).toBe(false)
    expect(await readFile(ws.path("a.js"), "utf8")).toBe(ORIGINAL)
    const last = JSON.stringify((fake.requests[1]!.body.messages as unknown[]).at(-1))
    expect(last).toContain("tool_result")
    expect(last).toContain("keep the greeting")
    expect(seen!.transcript).toMatch(/apply_diff.*denied/)
  }, 90_000)

  it("sends the active region as the task's context: exactly the selected lines", async () => {
    fake = await startFakeAnthropic([{ toolCalls: [{ name: "attempt_completion", input: { result: "It declares a greeting." } }] }])
    const script = `
      (require 'agent-lsp)
      (setq agent-lsp-server-command (list "node" ${JSON.stringify(SERVER_ENTRY)} "--stdio"))
      (find-file "a.js")
      (transient-mark-mode 1)
      ;; The whole first line, as a user selects it: from its start to the start of the next line.
      (goto-char (point-min))
      (push-mark (point) t t)
      (forward-line 1)
      (agent-lsp-new-task "explain this" (agent-lsp--region-context))
      (agent-lsp-test-wait (lambda () (equal (agent-lsp-test-task-status) "completed")) 45)
      (agent-lsp-test-observe (list :status (agent-lsp-test-task-status)))
      (eglot-shutdown (eglot-current-server))
    `
    const run = await runEmacs<{ status?: string; scriptError?: string }>(script, { cwd: ws.root, env: env(), timeoutMs: 60_000 })
    expect(run.observed, run.stderr.slice(-3000)).toEqual({ status: "completed" })
    const first = JSON.stringify(fake.requests[0]!.body.messages[0])
    expect(first).toContain("lines 1-1")
    expect(first).toContain("const greeting = 'hello'")
    expect(first).not.toContain("console.log")
  }, 90_000)
})
