import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { SERVER_ENTRY } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { EMACS_PACKAGE_DIR } from "./emacs-runner"
import { hasTmux, TmuxScreen } from "./tmux-screen"
import { expectBuiltServer, expectEmacsWithEglot } from "./preconditions"

// Emacs as a user runs it: `emacs -nw` in a terminal (tmux), with redisplay, font-lock, idle timers and
// the real minibuffer. The user types the option at the completing-read prompt. Batch mode cannot show
// what only a live Emacs does (fontification once changed the buffer's modified tick and the package
// then refused to save the agent's edit).

const ORIGINAL = "function greet(name) {\n  return 'hello ' + name\n}\n"
const EDITED = "function greet(name) {\n  return 'Hello, ' + name\n}\n"
const diff = [
  "<<<<<<< SEARCH",
  ":start_line:2",
  "-------",
  "  return 'hello ' + name",
  "=======",
  "  return 'Hello, ' + name",
  ">>>>>>> REPLACE",
].join("\n")

let fake: FakeAnthropic | undefined
let ws: TempWorkspace | undefined
let home: string | undefined
const screen = new TmuxScreen(`agent-lsp-emacs-${process.pid}`)

beforeAll(() => {
  expect(hasTmux, "tmux is not installed (apt-get install -y tmux)").toBe(true)
  expectEmacsWithEglot()
  expectBuiltServer()
})
afterEach(async () => {
  screen.stop()
  await fake?.close()
  await ws?.cleanup()
  if (home) rmSync(home, { recursive: true, force: true })
})

describe("Emacs in a terminal (emacs -nw in tmux, eglot 1.9, built server, fake model)", () => {
  it("shows the diff and the options, takes the typed answer, and ends with the buffer saved and equal to the disk", async () => {
    fake = await startFakeAnthropic([
      { toolCalls: [{ name: "apply_diff", input: { path: "greet.js", diff } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Capitalised." } }] },
    ])
    ws = await tempWorkspace({ "greet.js": ORIGINAL })
    home = mkdtempSync(join(tmpdir(), "agent-lsp-emacs-nw-"))
    writeFileSync(
      join(home, "init.el"),
      [
        `(add-to-list 'load-path ${JSON.stringify(EMACS_PACKAGE_DIR)})`,
        "(require 'agent-lsp)",
        `(setq agent-lsp-server-command (list "node" ${JSON.stringify(SERVER_ENTRY)} "--stdio"))`,
        "(setq agent-lsp-initialization-options '(:agent (:checkpoints (:enabled :json-false))))",
        "(setq inhibit-startup-screen t)",
        '(find-file "greet.js")',
        `(run-at-time 1 nil (lambda () (agent-lsp-new-task "Capitalise the greeting")))`,
      ].join("\n"),
    )
    screen.start(`emacs -nw -q -l ${join(home, "init.el")}`, {
      cwd: ws.root,
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-e2e-dummy-key-0123456789", HOME: home, TERM: "xterm-256color" },
    })
    const asking = await screen.waitFor("agent: Edit greet.js?", 45_000)
    // The diff window is on screen while the minibuffer asks.
    expect(asking).toContain("*agent-lsp approval*")
    expect(asking).toContain("+  return 'Hello, ' + name")
    screen.keys("Allow once", "Enter")
    const done = await screen.waitFor("agent-lsp: task completed", 45_000)
    // greet.js's mode line: "-UU-:----" is saved, "-UU-:**--" would be modified.
    const modeLine = done.split("\n").find((line) => line.includes("greet.js") && line.startsWith("-"))
    expect(modeLine, done).toMatch(/^-UU-:----/)
    expect(done).toContain("return 'Hello, ' + name")
    expect(await readFile(ws.path("greet.js"), "utf8")).toBe(EDITED)
    expect(done, "eglot did not ask a second time").not.toContain("Proceed?")
  }, 120_000)
})
