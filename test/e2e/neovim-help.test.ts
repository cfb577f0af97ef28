import { spawnSync } from "node:child_process"
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { tempWorkspace } from "../support/temp-workspace"
import { hasNvim, PLUGIN_DIR, runNvim } from "./nvim-runner"

// The plugin ships doc/tags so :help works without the user running :helptags. These tests check the
// shipped file is what Neovim's own :helptags makes of doc/agent_lsp.txt, that every command and every
// setup() option has a tag, and that :help finds them in a Neovim that only has the plugin on its rtp.

const tagsFile = join(PLUGIN_DIR, "doc", "tags")
const tagNames = () =>
  readFileSync(tagsFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t")[0])

describe("Neovim help tags", () => {
  it("doc/tags is exactly what :helptags generates (regenerate: nvim --headless -c 'helptags clients/neovim/doc' -c q)", () => {
    expect(hasNvim, "nvim is not installed (apt-get install -y neovim)").toBe(true)
    const dir = mkdtempSync(join(tmpdir(), "agent-lsp-helptags-"))
    try {
      cpSync(join(PLUGIN_DIR, "doc", "agent_lsp.txt"), join(dir, "agent_lsp.txt"))
      const run = spawnSync("nvim", ["--headless", "-n", "-u", "NONE", "-c", `helptags ${dir}`, "-c", "q"], { encoding: "utf8" })
      expect(run.status, run.stderr).toBe(0)
      expect(readFileSync(tagsFile, "utf8")).toBe(readFileSync(join(dir, "tags"), "utf8"))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("has a tag for every user command and every setup() option", () => {
    const plugin = readFileSync(join(PLUGIN_DIR, "plugin", "agent_lsp.lua"), "utf8")
    const commands = [...plugin.matchAll(/nvim_create_user_command\("(\w+)"/g)].map((m) => `:${m[1]}`)
    const config = readFileSync(join(PLUGIN_DIR, "lua", "agent_lsp", "config.lua"), "utf8")
    const defaults = config.slice(config.indexOf("M.defaults = {"), config.indexOf("\n}\n"))
    const options = [...defaults.matchAll(/^ {2}(\w+) =/gm)].map((m) => m[1])
    expect(commands.length).toBeGreaterThanOrEqual(6)
    expect(options).toEqual(expect.arrayContaining(["cmd", "settings", "transcript_split"]))
    const tags = tagNames()
    for (const command of commands) expect(tags, command).toContain(command)
    for (const option of options) expect(tags, option).toContain(option === "settings" ? "agent_lsp-settings" : `agent_lsp-${option}`)
    expect(tags).toContain("agent_lsp")
  })

  it(":help agent_lsp and :help :AgentTask open the plugin's help with only the plugin on the runtimepath", async () => {
    const ws = await tempWorkspace()
    try {
      const run = await runNvim<{ pages: { topic: string; file: string; line: string }[] }>(
        `
        local pages = {}
        for _, topic in ipairs({ "agent_lsp", ":AgentTask", "agent_lsp-transcript_split" }) do
          vim.cmd("help " .. topic)
          table.insert(pages, { topic = topic, file = vim.fn.expand("%:t"), line = vim.api.nvim_get_current_line() })
          vim.cmd("helpclose")
        end
        observe({ pages = pages })
        `,
        { cwd: ws.root },
      )
      expect(run.observed, run.stderr).toBeDefined()
      for (const page of run.observed!.pages) {
        expect(page.file, page.topic).toBe("agent_lsp.txt")
        expect(page.line, page.topic).toContain(`*${page.topic}*`)
      }
    } finally {
      await ws.cleanup()
    }
  })
})
