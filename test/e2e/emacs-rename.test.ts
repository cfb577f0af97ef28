import { execFileSync } from "node:child_process"
import { readFile, writeFile } from "node:fs/promises"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from "../support/fake-anthropic"
import { SERVER_ENTRY } from "../support/server-harness"
import { toolResultIn, toolResultText } from "../support/session"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { PROJECT, positionOf, writeProject } from "../support/typescript-oracle"
import { fakeModelEnv, runEmacs } from "./emacs-runner"
import { typescriptEmacsPrelude } from "./emacs-typescript"
import { expectBuiltServer, expectEmacsWithEglot } from "./preconditions"

// rename_symbol in a real Emacs (emacs --batch, eglot 1.9): the user's typescript-language-server runs under
// eglot for .ts buffers, agent-lsp is eglot's server of the notes buffer. The rename's WorkspaceEdit comes
// from the TypeScript server through agent/languageFeature (agent-lsp-language.el), is approved once in the
// package's own UI (completing-read-function stands in for the user), and lands as one workspace/applyEdit
// over the three buffers; one undo in each buffer restores it. A rename that would touch a protected file
// asks nothing and changes nothing. Mirrors test/e2e/neovim-lsp-tool.test.ts.

const FILES = ["src/shape.ts", "src/circle.ts", "src/main.ts"]

interface FileSeen {
  after: string
  modified: boolean
  shown: boolean
  undone: string
}

interface Observed {
  scriptError?: string
  status?: string
  projectLoaded: boolean
  prompts: { prompt: string; preview: string }[]
  /** workspace/applyEdit requests Emacs applied. */
  appliedEdits: number
  files: Record<string, FileSeen>
}

/**
 * Emacs with main.ts shown and the TypeScript server loaded; `visit` are files visited (unseen) before the
 * task, as a user who had them open. After the task: each file's buffer text, whether it is modified or
 * shown, and its text after one undo (with the boundary the command loop leaves after a command).
 */
function script(visit: string[]): string {
  const lisp = (values: string[]) => values.map((v) => JSON.stringify(v)).join(" ")
  return `
    ${typescriptEmacsPrelude(SERVER_ENTRY)}
    (defvar test-prompts nil)
    (defvar test-applied-edits 0)
    (advice-add 'eglot--apply-workspace-edit :before (lambda (&rest _) (setq test-applied-edits (1+ test-applied-edits))))
    (setq completing-read-function
          (lambda (prompt _collection &rest _)
            (let ((preview (get-buffer "*agent-lsp approval*")))
              (push (list :prompt prompt :preview (if preview (with-current-buffer preview (buffer-string)) "")) test-prompts))
            "Allow once"))
    (let* ((project (project-current nil default-directory))
           (root (project-root project)))
      (find-file "src/main.ts")
      (let ((main (current-buffer)))
        (let ((loaded (agent-test-start-typescript project main)))
          (dolist (file (list ${lisp(visit)})) (find-file-noselect (expand-file-name file root)))
          ;; The command loop leaves an undo boundary after each command: the user's last one.
          (dolist (buffer (buffer-list)) (with-current-buffer buffer (undo-boundary)))
          (select-window (split-window))
          (find-file (expand-file-name "notes.txt" root))
          (agent-lsp-new-task "rename describeShape to renderShape")
          (agent-lsp-test-wait-task-end 150)
          (let ((files nil))
            (dolist (file (list ${lisp(FILES)}))
              (let ((buffer (find-buffer-visiting (expand-file-name file root))))
                (push (intern (concat ":" file)) files)
                (push (if (not buffer)
                          (list :after "" :modified :json-false :shown :json-false :undone "")
                        (with-current-buffer buffer
                          (let ((after (buffer-string))
                                (modified (if (buffer-modified-p) t :json-false))
                                (shown (if (get-buffer-window buffer) t :json-false)))
                            (undo-boundary)
                            (ignore-errors (undo))
                            (list :after after :modified modified :shown shown :undone (buffer-string)))))
                      files)))
            (agent-lsp-test-observe
             (list :status (agent-lsp-test-task-status)
                   :projectLoaded (if loaded t :json-false)
                   :prompts (vconcat (reverse test-prompts))
                   :appliedEdits test-applied-edits
                   :files (nreverse files))))
          (dolist (servers (hash-table-values eglot--servers-by-project))
            (dolist (server servers) (ignore-errors (eglot-shutdown server)))))))
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

/** The project in a git repository (one eglot project for both folders' buffers) with a notes file. */
async function project(extra: Record<string, string> = {}): Promise<TempWorkspace> {
  ws = await tempWorkspace()
  await writeProject(ws.root, { ...PROJECT, ...extra })
  await writeFile(ws.path("notes.txt"), "Tasks for the agent.\n")
  execFileSync("git", ["init", "-q"], { cwd: ws.root })
  return ws
}

async function run(turns: FakeReply[], visit: string[]) {
  fake = await startFakeAnthropic(turns)
  const emacs = await runEmacs<Observed>(script(visit), { cwd: ws.root, env: fakeModelEnv(fake.url), timeoutMs: 300_000 })
  const seen = emacs.observed
  expect(seen, `emacs wrote nothing (exit ${emacs.code})\n${emacs.stderr.slice(-3000)}`).toBeDefined()
  const context = JSON.stringify({ ...seen, stderr: emacs.stderr.slice(-3000) }, null, 1)
  expect(seen!.scriptError, context).toBeUndefined()
  expect(seen!.projectLoaded, context).toBe(true)
  expect(seen!.status, context).toBe("completed")
  expect(emacs.code, emacs.stderr.slice(-2000)).toBe(0)
  return { seen: seen!, context }
}

describe("Emacs renames through its own eglot server (emacs --batch, eglot 1.9)", () => {
  it("renames across three files with one approval in one edit over the buffers, saved, and one undo in each restores it", async () => {
    await project()
    const at = positionOf(ws.root, "src/shape.ts", "describeShape")
    const rename = { id: "toolu_rename", name: "rename_symbol", input: { filePath: "src/shape.ts", ...at, newName: "renderShape" } }
    // First the model looks around (the lsp tool visits shape.ts and circle.ts unseen), then renames.
    const turns: FakeReply[] = [
      {
        toolCalls: [
          { id: "toolu_refs", name: "lsp", input: { operation: "findReferences", filePath: "src/shape.ts", ...at } },
          { id: "toolu_symbols", name: "lsp", input: { operation: "documentSymbol", filePath: "src/circle.ts" } },
        ],
      },
      { toolCalls: [rename] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Renamed." } }] },
    ]
    const { seen, context } = await run(turns, [])

    expect(fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("rename_symbol")
    const result = toolResultText(toolResultIn(fake.requests[2], "toolu_rename"))
    expect(result, context).toContain("Renamed to renderShape in 3 files")
    expect(result, "every file was a buffer, none written behind it").toContain(
      "3 open buffers changed in one editor edit (undoable), 3 saved",
    )
    expect(seen.prompts, context).toHaveLength(1)
    expect(seen.appliedEdits, context).toBe(1)
    for (const file of FILES) expect(seen.prompts[0]!.preview, `the approval shows ${file}'s diff`).toContain(`+++ b/${file}`)
    for (const file of FILES) {
      const entry = seen.files[file]!
      if (file !== "src/main.ts") expect(entry.shown, `${file} was visited without being shown`).toBe(false)
      expect(entry.after, context).toContain("renderShape")
      expect(entry.after).not.toContain("describeShape")
      expect(entry.modified, `${file} was saved`).toBe(false)
      expect(await readFile(ws.path(file), "utf8"), `${file} on disk`).toBe(entry.after)
      expect(entry.undone, `one undo in ${file} restores it`).toBe(PROJECT[file])
    }
  }, 320_000)

  it("refuses the whole rename, asking nothing and changing no buffer or file, when it would touch a protected file", async () => {
    const usage = 'import { describeShape, Square } from "../src/shape"\nexport const shown = describeShape(new Square(1))\n'
    const tsconfig = JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src", ".vscode"] })
    await project({ ".vscode/usage.ts": usage, "tsconfig.json": tsconfig })
    const at = positionOf(ws.root, "src/shape.ts", "describeShape")
    const rename = { id: "toolu_rename", name: "rename_symbol", input: { filePath: "src/shape.ts", ...at, newName: "renderShape" } }
    const turns: FakeReply[] = [{ toolCalls: [rename] }, { toolCalls: [{ name: "attempt_completion", input: { result: "Refused." } }] }]
    const { seen, context } = await run(turns, ["src/shape.ts", "src/circle.ts", ".vscode/usage.ts"])

    const result = toolResultIn(fake.requests[1], "toolu_rename")
    expect(result.is_error, context).toBe(true)
    expect(toolResultText(result)).toContain("Nothing was renamed: it would change .vscode/usage.ts, a protected file")
    expect(seen.prompts, "nothing was asked").toEqual([])
    expect(seen.appliedEdits, "nothing was applied").toBe(0)
    for (const file of FILES) {
      const entry = seen.files[file]!
      expect(entry.after, `${file}'s buffer`).toBe(PROJECT[file])
      expect(entry.modified).toBe(false)
      expect(await readFile(ws.path(file), "utf8"), `${file} on disk`).toBe(PROJECT[file])
    }
    expect(await readFile(ws.path(".vscode/usage.ts"), "utf8")).toBe(usage)
  }, 320_000)
})
