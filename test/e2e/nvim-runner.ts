import { spawnSync } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { runEditorProcess, type EditorRun } from "./editor-process"

/** The Neovim plugin folder of this checkout (put on the runtimepath of every test Neovim). */
export const PLUGIN_DIR = resolve(import.meta.dirname, "..", "..", "clients", "neovim")

/** Whether `nvim` is on PATH (CI installs Debian's 0.7.2; `apt-get install -y neovim`). */
export const hasNvim = spawnSync("nvim", ["--version"], { stdio: "ignore" }).status === 0

/** How a headless Neovim run ended; `observed` is what the script passed to `observe(tbl)`. */
export type NvimRun<T> = EditorRun<T>

/**
 * Runs `nvim --headless -n` in `cwd` with a minimal init that loads the plugin from the checkout, then
 * the Lua `script`. The script gets a global `observe(tbl)` that writes its observations as JSON for
 * the test; an error in the script is observed as `{ scriptError = message }` and exits 1.
 */
export async function runNvim<T = Record<string, unknown>>(
  script: string,
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<NvimRun<T>> {
  const dir = await mkdtemp(join(tmpdir(), "agent-lsp-nvim-"))
  const out = join(dir, "observed.json")
  const init = join(dir, "init.lua")
  const main = join(dir, "script.lua")
  await writeFile(
    init,
    [
      `vim.opt.runtimepath:prepend(${JSON.stringify(PLUGIN_DIR)})`,
      "vim.opt.swapfile = false",
      "vim.opt.shadafile = 'NONE'",
      `vim.cmd("runtime plugin/agent_lsp.lua")`,
      `function observe(tbl)`,
      `  local f = assert(io.open(${JSON.stringify(out)}, "w"))`,
      `  f:write(vim.json.encode(tbl))`,
      `  f:close()`,
      `end`,
    ].join("\n"),
  )
  await writeFile(
    main,
    [
      `local ok, err = xpcall(function()`,
      script,
      `end, debug.traceback)`,
      `if not ok then observe({ scriptError = tostring(err) }) vim.cmd("cquit 1") end`,
      `vim.cmd("qa!")`,
    ].join("\n"),
  )
  // XDG dirs inside the temp folder keep the user's own Neovim config and state out of the test.
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    XDG_STATE_HOME: join(dir, "state"),
    XDG_CACHE_HOME: join(dir, "cache"),
    ...options.env,
  }
  const run = await runEditorProcess<T>("nvim", ["--headless", "-n", "-u", init, "-c", `luafile ${main}`], {
    cwd: options.cwd,
    env,
    timeoutMs: options.timeoutMs ?? 20_000,
    observationFile: out,
  })
  await rm(dir, { recursive: true, force: true })
  return run
}
