import { afterEach, describe, expect, it } from "vitest"
import { rm, symlink } from "node:fs/promises"
import { discoverCommands, parseSlashInvocation, readCommandBody } from "../../../server/src/skills"
import { expandSlashCommand } from "../../../server/src/skills"
import { runSlashCommand } from "../../../server/src/tools/run-slash-command"
import { makeToolContext } from "../../support/tool-context"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { runTool, text } from "../tools/meta/run-tool"

const made: TempWorkspace[] = []
let previousHome: string | undefined
afterEach(async () => {
  process.env.HOME = previousHome
  for (const ws of made.splice(0)) await ws.cleanup()
})

/** A workspace and a home folder (HOME points at it for the tool and the expansion). */
async function folders(workspaceFiles: Record<string, string>, homeFiles: Record<string, string> = {}) {
  const ws = await tempWorkspace(workspaceFiles)
  const home = await tempWorkspace(homeFiles)
  made.push(ws, home)
  previousHome = process.env.HOME
  process.env.HOME = home.root
  return { ws, home }
}

const REVIEW = "---\ndescription: Review a file\nargument-hint: <path>\n---\nReview the file for bugs and style.\n"

describe("slash command discovery", () => {
  it("lists workspace, global and built-in commands, the workspace winning by name", async () => {
    const { ws, home } = await folders(
      { ".roo/commands/review.md": REVIEW, ".roo/commands/notes.txt": "not a command" },
      { ".roo/commands/review.md": "---\ndescription: Global review\n---\nglobal", ".roo/commands/release.md": "Cut a release." },
    )
    const commands = await discoverCommands({ workspaceFolders: [ws.root], home: home.root })
    expect(commands).toEqual([
      {
        name: "init",
        description: "Study the codebase and write (or improve) AGENTS.md for coding agents",
        argumentHint: "[what to focus on]",
        source: "builtin",
        location: "built-in",
      },
      { name: "release", source: "global", path: home.path(".roo/commands/release.md"), location: "~/.roo/commands/release.md" },
      {
        name: "review",
        description: "Review a file",
        argumentHint: "<path>",
        source: "workspace",
        path: ws.path(".roo/commands/review.md"),
        location: ".roo/commands/review.md",
        confineTo: ws.root,
      },
    ])
  })

  it("lets a workspace file replace the built-in init", async () => {
    const { ws, home } = await folders({ ".roo/commands/init.md": "---\ndescription: Our init\n---\nOur own init." })
    const commands = await discoverCommands({ workspaceFolders: [ws.root], home: home.root })
    expect(commands.find((c) => c.name === "init")).toMatchObject({ source: "workspace", description: "Our init" })
  })

  it("does not read a workspace command swapped for a symlink out of the workspace after discovery found it", async () => {
    const { ws, home } = await folders({ ".roo/commands/swap.md": "Harmless.\n" }, { "secret.md": "AWS_SECRET_ACCESS_KEY=abc123\n" })
    const found = (await discoverCommands({ workspaceFolders: [ws.root], home: home.root })).find((c) => c.name === "swap")
    expect(found?.source).toBe("workspace")
    await rm(ws.path(".roo/commands/swap.md"))
    await symlink(home.path("secret.md"), ws.path(".roo/commands/swap.md"))
    expect(await readCommandBody(found!)).toBeUndefined()
  })

  it("parses /name args only for a leading command-like word", () => {
    expect(parseSlashInvocation("/review src/app.js")).toEqual({ name: "review", args: "src/app.js" })
    expect(parseSlashInvocation("/init")).toEqual({ name: "init", args: "" })
    expect(parseSlashInvocation("/review  a b\nmore")).toEqual({ name: "review", args: "a b\nmore" })
    expect(parseSlashInvocation("/etc/hosts is broken")).toBeUndefined()
    expect(parseSlashInvocation("please /review")).toBeUndefined()
    expect(parseSlashInvocation("/")).toBeUndefined()
  })
})

describe("slash command expansion of a task's text", () => {
  it("turns /review src/app.js into the command's body, keeping the argument", async () => {
    const { ws } = await folders({ ".roo/commands/review.md": REVIEW })
    expect(await expandSlashCommand("/review src/app.js", [ws.root])).toBe(
      "Slash command /review (.roo/commands/review.md):\n\nReview the file for bugs and style.\n\nArguments: src/app.js",
    )
  })

  it("leaves unknown commands and ordinary text alone", async () => {
    const { ws } = await folders({})
    expect(await expandSlashCommand("/nope do it", [ws.root])).toBe("/nope do it")
    expect(await expandSlashCommand("/etc/hosts is broken", [ws.root])).toBe("/etc/hosts is broken")
    expect(await expandSlashCommand("fix the bug", [ws.root])).toBe("fix the bug")
  })

  it("expands the built-in /init into instructions that write AGENTS.md", async () => {
    const { ws } = await folders({})
    const expanded = await expandSlashCommand("/init", [ws.root])
    expect(expanded).toContain("Slash command /init (built-in):")
    expect(expanded).toContain("Create or update AGENTS.md at the workspace root")
  })
})

describe("the run_slash_command tool", () => {
  it("returns the body with the args", async () => {
    const { ws } = await folders({ ".roo/commands/review.md": REVIEW })
    const result = await runTool(runSlashCommand, { command: "review", args: "src/app.js" }, makeToolContext(ws.root))
    expect(result.isError).toBe(false)
    expect(text(result)).toBe(
      "Slash command /review (.roo/commands/review.md):\n\nReview the file for bugs and style.\n\nArguments: src/app.js",
    )
  })

  it("answers an unknown command with the available ones", async () => {
    const { ws } = await folders({ ".roo/commands/review.md": REVIEW })
    const result = await runTool(runSlashCommand, { command: "/revue" }, makeToolContext(ws.root))
    expect(result.isError).toBe(true)
    expect(text(result)).toBe(
      'There is no slash command "revue". Available commands: /init (Study the codebase and write (or improve) AGENTS.md for coding agents), /review (Review a file). Call run_slash_command with one of these names.',
    )
  })
})
