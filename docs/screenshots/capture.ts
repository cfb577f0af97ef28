/**
 * Takes the README's screenshots from real editors: Emacs 28 (-nw) and Neovim 0.7 running in tmux against
 * the built server and the test suite's fake Messages API (no real model). Each screen is
 * `tmux capture-pane -e` (the terminal's real cells and colours) turned into HTML by `aha` and into a PNG
 * by headless Chromium. Needs tmux, aha, chromium, emacs-nox + elpa-eglot, neovim; run after `npm run build`:
 *
 *   node --import tsx docs/screenshots/capture.ts
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { startFakeAnthropic } from "../../test/support/fake-anthropic"
import { tempWorkspace } from "../../test/support/temp-workspace"
import { TmuxScreen } from "../../test/e2e/tmux-screen"

const root = resolve(import.meta.dirname, "..", "..")
const server = join(root, "dist", "agent-lsp.mjs")
const out = join(root, "docs", "screenshots")
const screen = new TmuxScreen("agent-lsp-capture")
const [columns, rows] = [screen.columns, screen.rows]

const diff = ["<<<<<<< SEARCH", ":start_line:1", "-------", "function greet(name) {", "  return 'hello ' + name", "=======", "function greet(name, punctuation = '!') {", "  return 'Hello, ' + name + punctuation", ">>>>>>> REPLACE"].join("\n")
const script = () => [
  { text: "I'll read greet.js first.", toolCalls: [{ name: "read_file", input: { path: "greet.js" } }] },
  { text: "Now the change: a capitalised greeting with configurable punctuation.", toolCalls: [{ name: "apply_diff", input: { path: "greet.js", diff } }] },
  { toolCalls: [{ name: "attempt_completion", input: { result: "greet() now says 'Hello, <name>!' and takes an optional punctuation argument." } }] },
]
const source = "function greet(name) {\n  return 'hello ' + name\n}\n\nmodule.exports = { greet }\n"

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The tmux pane, as it is now, to docs/screenshots/<name>.png. */
function snapshot(name: string, dir: string): void {
  const ansi = screen.text(true)
  const body = execFileSync("aha", ["--black", "--no-header"], { input: ansi, encoding: "utf8" })
  const html = join(dir, `${name}.html`)
  writeFileSync(html, `<!doctype html><meta charset="utf-8"><style>body{margin:0;background:#000}pre{margin:0;padding:8px;font:15px/1.25 "DejaVu Sans Mono",monospace;color:#ddd}</style><pre>${body}</pre>`)
  execFileSync("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", `--screenshot=${join(out, `${name}.png`)}`, `--window-size=${columns * 9 + 16},${rows * 19 + 16}`, `file://${html}`], { stdio: "ignore" })
  console.log(`wrote docs/screenshots/${name}.png`)
}

async function capture(editor: "emacs" | "neovim"): Promise<void> {
  const fake = await startFakeAnthropic(script())
  const ws = await tempWorkspace({ "greet.js": source })
  const home = mkdtempSync(join(tmpdir(), "agent-lsp-capture-"))
  try {
    let command: string
    if (editor === "emacs") {
      writeFileSync(join(home, "init.el"), [
        `(add-to-list 'load-path ${JSON.stringify(join(root, "clients", "emacs"))})`,
        "(require 'agent-lsp)",
        `(setq agent-lsp-server-command (list "node" ${JSON.stringify(server)} "--stdio"))`,
        "(setq agent-lsp-initialization-options '(:agent (:checkpoints (:enabled :json-false))))",
        "(fido-vertical-mode 1)",
        "(setq inhibit-startup-screen t)",
        `(find-file ${JSON.stringify(ws.path("greet.js"))})`,
        `(run-at-time 1 nil (lambda () (agent-lsp-new-task "Capitalise the greeting and let callers choose the punctuation")))`,
      ].join("\n"))
      command = `emacs -nw -q -l ${join(home, "init.el")}`
    } else {
      writeFileSync(join(home, "init.lua"), [
        `vim.opt.runtimepath:prepend(${JSON.stringify(join(root, "clients", "neovim"))})`,
        "vim.opt.swapfile = false",
        `vim.cmd("runtime plugin/agent_lsp.lua")`,
        `require("agent_lsp").setup({ cmd = { "node", ${JSON.stringify(server)}, "--stdio" }, settings = { checkpoints = { enabled = false } } })`,
        `vim.cmd("edit greet.js")`,
        `vim.defer_fn(function() vim.cmd("AgentTask Capitalise the greeting and let callers choose the punctuation") end, 1500)`,
      ].join("\n"))
      command = `nvim -n -u ${join(home, "init.lua")}`
    }
    screen.start(command, {
      cwd: ws.root,
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-screenshot-dummy", HOME: home, XDG_STATE_HOME: join(home, "state"), TERM: "xterm-256color" },
    })
    await screen.waitFor(editor === "emacs" ? "Allow once" : "Type number")
    await sleep(500)
    snapshot(`${editor}-approval`, home)
    if (editor === "emacs") screen.keys("Allow once", "Enter")
    else screen.keys("1", "Enter")
    await screen.waitFor("Completed")
    await sleep(800)
    snapshot(`${editor}-completed`, home)
  } finally {
    screen.stop()
    await fake.close()
    await ws.cleanup()
    rmSync(home, { recursive: true, force: true })
  }
}

await capture("emacs")
await capture("neovim")
