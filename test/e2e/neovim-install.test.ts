import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runEditorProcess } from "./editor-process"
import { hasNvim, PLUGIN_DIR } from "./nvim-runner"
import { expectBuiltServer } from "./preconditions"
import { editorHints } from "../../scripts/start-hints.mjs"

// The install snippets of clients/neovim/README.md, copied from the README itself (~/src/agent-lsp pointing at
// this checkout), each in a fresh headless Neovim whose only configuration is the snippet. lazy.nvim is not in
// Debian and cannot be downloaded here: its spec is checked for shape and run the way lazy.nvim runs a `dir`
// plugin (dir on the runtimepath, its plugin/ files sourced, config called), not through lazy.nvim itself.

const root = resolve(PLUGIN_DIR, "..", "..")
const readme = readFileSync(join(PLUGIN_DIR, "README.md"), "utf8")
function snippet(heading: string): string {
  const from = readme.indexOf(heading)
  expect(from, `README section ${heading}`).toBeGreaterThan(0)
  const block = /```lua\n([\s\S]*?)```/.exec(readme.slice(from))
  return block![1]!.replaceAll("~/src/agent-lsp", root)
}

const work = mkdtempSync(join(tmpdir(), "agent-lsp-nvim-install-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))
beforeAll(() => {
  expect(hasNvim, "nvim is not installed (apt-get install -y neovim)").toBe(true)
  expectBuiltServer()
})

interface Seen {
  commands: number[]
  help: boolean
  attached: boolean
  defaultMode?: string
  /** Warnings and errors shown while starting (window/showMessage goes through vim.notify): none expected. */
  warnings: string[]
  scriptError?: string
}

/** After start-up: the commands exist, :help finds the plugin, and opening a file attaches a client that answers. */
const CHECK = `
local warnings = {}
local notify = vim.notify
vim.notify = function(msg, level, opts)
  if level and level >= vim.log.levels.WARN then table.insert(warnings, tostring(msg)) end
  return notify(msg, level, opts)
end
-- Neovim 0.7 writes window/showMessage with nvim_out_write, not vim.notify: watch the handler too.
local show = vim.lsp.handlers["window/showMessage"]
vim.lsp.handlers["window/showMessage"] = function(err, result, ctx, config)
  if result and result.type and result.type <= 2 then table.insert(warnings, tostring(result.message)) end
  return show(err, result, ctx, config)
end
local ok, err = pcall(function()
  local seen = { commands = {}, warnings = warnings }
  for _, name in ipairs({ "AgentTask", "AgentSend", "AgentCancel", "AgentMode", "AgentTasks", "AgentTranscript" }) do
    table.insert(seen.commands, vim.fn.exists(":" .. name))
  end
  seen.help = pcall(vim.cmd, "help :AgentTask")
  vim.cmd("silent! helpclose")
  vim.cmd("edit a.txt")
  local buf = vim.api.nvim_get_current_buf()
  seen.attached = vim.wait(15000, function() return require("agent_lsp.client").get(buf) ~= nil end, 20)
  if seen.attached then
    local modes = require("agent_lsp.client").get(buf).request_sync("agent/listModes", {}, 5000, buf)
    seen.defaultMode = modes and modes.result and modes.result.defaultMode
    -- Settings problems are shown right after initialize; give a late one time to arrive.
    vim.wait(500, function() return #warnings > 0 end, 20)
  end
  return seen
end)
local seen = ok and err or { scriptError = tostring(err) }
local f = assert(io.open(vim.env.OBSERVE, "w"))
f:write(vim.json.encode(seen))
f:close()
vim.lsp.stop_client(vim.lsp.get_active_clients())
vim.wait(3000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
vim.cmd("qa!")
`

async function startNvim(name: string, init: string): Promise<{ seen: Seen | undefined; output: string }> {
  const dir = join(work, name)
  const initFile = join(work, `${name}-init.lua`)
  const check = join(work, `${name}-check.lua`)
  const out = join(work, `${name}.json`)
  rmSync(dir, { recursive: true, force: true })
  writeFileSync(initFile, init)
  writeFileSync(check, CHECK)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, "a.txt"), "hello\n")
  const env = {
    ...process.env,
    OBSERVE: out,
    XDG_CONFIG_HOME: join(dir, ".config"),
    XDG_DATA_HOME: join(dir, ".data"),
    XDG_STATE_HOME: join(dir, ".state"),
    XDG_CACHE_HOME: join(dir, ".cache"),
  }
  // -u: the snippet is the whole configuration; plugin/ files on the runtimepath are sourced at start-up as usual.
  const run = await runEditorProcess<Seen>("nvim", ["--headless", "-n", "-u", initFile, "-c", `luafile ${check}`], {
    cwd: dir,
    env,
    timeoutMs: 40_000,
    observationFile: out,
  })
  return { seen: run.observed, output: run.stdout + run.stderr }
}

const EXPECTED: Seen = { commands: [2, 2, 2, 2, 2, 2], help: true, attached: true, defaultMode: "code", warnings: [] }

describe("the Neovim plugin's documented install snippets", () => {
  it("the runtimepath snippet as init.lua: commands, help, and a client that attaches and answers", async () => {
    const { seen, output } = await startNvim("rtp", snippet("### Plain `runtimepath`"))
    expect(seen, output).toEqual(EXPECTED)
  }, 60_000)

  it("the Neovim hint npm start prints, as init.lua: commands, help, and a client that attaches and answers", async () => {
    const { seen, output } = await startNvim("start-hint", editorHints(root).neovim)
    expect(seen, output).toEqual(EXPECTED)
  }, 60_000)

  it("the lazy.nvim spec: dir holds the plugin, build's ../.. is the repository, and dir + plugin/ + config works", async () => {
    const spec = snippet("### lazy.nvim")
    // What lazy.nvim does with a local plugin spec: dir on the runtimepath, its plugin/ files sourced, config().
    const lazyLike = `
      local spec = (function() return ${spec} end)()
      assert(type(spec) == "table" and spec[1] == nil, "a local spec has no URL")
      assert(spec.name == "agent_lsp", "name")
      assert(type(spec.config) == "function", "config")
      local dir = vim.fn.expand(spec.dir)
      assert(vim.fn.filereadable(dir .. "/plugin/agent_lsp.lua") == 1, "dir holds plugin/agent_lsp.lua")
      assert(vim.fn.filereadable(dir .. "/lua/agent_lsp/init.lua") == 1, "dir holds lua/agent_lsp")
      local repo = vim.fn.fnamemodify(dir .. "/../..", ":p")
      assert(spec.build:match("^cd %.%./%.%. && npm ci && npm run build$"), "build")
      assert(vim.fn.filereadable(repo .. "package.json") == 1, "build's ../.. is the repository")
      vim.opt.runtimepath:append(dir)
      for _, file in ipairs(vim.fn.glob(dir .. "/plugin/**/*.lua", false, true)) do vim.cmd("source " .. file) end
      spec.config({ dir = dir, name = spec.name }, {})
    `
    const { seen, output } = await startNvim("lazy", lazyLike)
    expect(seen, output).toEqual(EXPECTED)
  }, 60_000)
})
