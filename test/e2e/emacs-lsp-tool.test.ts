import { execFileSync } from "node:child_process"
import { writeFile } from "node:fs/promises"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { placesIn } from "../support/lsp-questions"
import { SERVER_ENTRY } from "../support/server-harness"
import { toolResultText } from "../support/session"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { positionOf, TypescriptOracle, writeProject } from "../support/typescript-oracle"
import { fakeModelEnv, runEmacs } from "./emacs-runner"
import { typescriptEmacsPrelude } from "./emacs-typescript"
import { expectBuiltServer, expectEmacsWithEglot } from "./preconditions"

// agent/languageFeature answered by Emacs for real: the user's typescript-language-server runs under eglot
// for .ts buffers, agent-lsp is eglot's server of the notes buffer (eglot runs one server per major mode),
// and the lsp tool's questions about files no window shows are answered by the TypeScript server, through
// the package's handler (agent-lsp-language.el), equal to that server's own answers.

interface Observed {
  scriptError?: string
  status?: string
  projectLoaded: boolean
  shapeShown: boolean
  circleVisited: boolean
}

function script(): string {
  return `
    ${typescriptEmacsPrelude(SERVER_ENTRY)}
    (let ((project (project-current nil default-directory)))
      (find-file "src/main.ts")
      (let ((main (current-buffer)))
        (let ((loaded (agent-test-start-typescript project main)))
          (select-window (split-window))
          (find-file (expand-file-name "notes.txt" (project-root project)))
          (agent-lsp-new-task "find describeShape")
          (agent-lsp-test-wait-task-end 150)
          (let ((shape (find-buffer-visiting (expand-file-name "src/shape.ts" (project-root project)))))
            (agent-lsp-test-observe
             (list :status (agent-lsp-test-task-status)
                   :projectLoaded (if loaded t :json-false)
                   :shapeShown (if (and shape (get-buffer-window shape)) t :json-false)
                   :circleVisited (if (find-buffer-visiting (expand-file-name "src/circle.ts" (project-root project))) t :json-false))))
          (dolist (server (hash-table-values eglot--servers-by-project))
            (dolist (s server) (ignore-errors (eglot-shutdown s)))))))
  `
}

let ws: TempWorkspace
let fake: FakeAnthropic
let oracle: TypescriptOracle | undefined

beforeAll(() => {
  expectEmacsWithEglot()
  expectBuiltServer()
})
afterEach(async () => {
  await fake?.close()
  await oracle?.stop()
  await ws?.cleanup()
})

describe("Emacs answers the lsp tool from the file's own eglot server (emacs --batch, eglot 1.9)", () => {
  it("answers references and a symbol outline of files it visits without showing, as typescript-language-server does", async () => {
    ws = await tempWorkspace()
    await writeProject(ws.root)
    await writeFile(ws.path("notes.txt"), "Tasks for the agent.\n")
    // A git repository, so both folders' buffers are in one eglot project.
    execFileSync("git", ["init", "-q"], { cwd: ws.root })
    const at = positionOf(ws.root, "src/shape.ts", "describeShape")
    fake = await startFakeAnthropic([
      {
        toolCalls: [
          { id: "toolu_refs", name: "lsp", input: { operation: "findReferences", filePath: "src/shape.ts", ...at } },
          { id: "toolu_symbols", name: "lsp", input: { operation: "documentSymbol", filePath: "src/circle.ts" } },
        ],
      },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Found it." } }] },
    ])
    const run = await runEmacs<Observed>(script(), { cwd: ws.root, env: fakeModelEnv(fake.url), timeoutMs: 300_000 })
    const seen = run.observed
    expect(seen, `emacs wrote nothing (exit ${run.code})\n${run.stderr.slice(-3000)}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr.slice(-3000) }, null, 1)
    expect(seen!.scriptError, context).toBeUndefined()
    expect(seen!.projectLoaded, context).toBe(true)
    expect(seen!.status, context).toBe("completed")
    expect(seen!.shapeShown, "src/shape.ts was visited without a window").toBe(false)
    expect(seen!.circleVisited, context).toBe(true)

    const last = fake.requests[1]!.body.messages.at(-1).content
    const refs = toolResultText(last.find((b: any) => b.tool_use_id === "toolu_refs"))
    oracle = await TypescriptOracle.start(ws.root)
    await oracle.warm()
    const expected = await oracle.request("textDocument/references", {
      textDocument: { uri: oracle.uri("src/shape.ts") },
      position: { line: at.line - 1, character: at.character - 1 },
      context: { includeDeclaration: true },
    })
    expect(placesIn(refs), `${refs}\n${context}`).toEqual([...new Set(oracle.placesOf(expected))])
    const symbols = toolResultText(last.find((b: any) => b.tool_use_id === "toolu_symbols"))
    expect(symbols, context).toMatch(/^src\/circle\.ts: \d+ symbols/)
    expect(symbols).toMatch(/class Circle {2}3-8/)
    expect(run.code, run.stderr.slice(-2000)).toBe(0)
  }, 320_000)
})
