import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { setArtifactDir } from "../../../server/src/terminal/artifacts"
import { startSandboxed, tempHome } from "../../support/sandboxed-command"
import { type TempWorkspace, tempWorkspace } from "../../support/temp-workspace"

/**
 * A write the user approved outside the workspace (`cp notes.txt ~`) makes that folder writable for the
 * command. When that folder holds the workspace or the home, the approval names the folder, not the protected
 * paths below it: those stay read-only (or held, when missing), as for any other command.
 */

let parent: TempWorkspace
let artifacts: TempWorkspace
const ws = () => parent.path("ws")
const home = () => parent.path("home")

beforeAll(async () => {
  // Outside /tmp: the sandbox shows its own private /tmp, which would hide a host /tmp folder whole.
  parent = await tempHome({
    "ws/src/a.txt": "hello\n",
    "ws/.envrc": "export A=1\n",
    "home/.bashrc": "# the user's\n",
    "home/notes.txt": "mine\n",
  })
  execFileSync("git", ["init", "-q"], { cwd: ws() })
  artifacts = await tempWorkspace()
  setArtifactDir(artifacts.root)
})

afterAll(async () => {
  setArtifactDir(undefined)
  await parent.cleanup()
  await artifacts.cleanup()
})

const run = (command: string, extraWritablePaths: string[]) =>
  startSandboxed(command, { workspaceFolders: [ws()], home: home(), extraWritablePaths, network: { allowedHosts: [] } }).done

describe("an approved write to a folder that holds the workspace and the home", () => {
  it("lets the command write that folder, but not the workspace's protected paths nor the home's startup files", async () => {
    const gitConfig = readFileSync(`${ws()}/.git/config`, "utf8")
    const result = await run(
      [
        `echo approved > ${parent.path("approved.txt")}`,
        "echo '[core] fsmonitor = evil' >> .git/config",
        "echo evil > .envrc",
        "echo evil > AGENTS.md",
        "mkdir -p .vscode && echo evil > .vscode/settings.json",
        `echo evil >> ${home()}/.bashrc`,
        `mkdir -p ${home()}/.config/fish && echo evil > ${home()}/.config/fish/config.fish`,
        `echo evil > ${home()}/.profile`,
        "true",
      ].join("; "),
      [parent.root],
    )
    // The approval itself works: the command wrote the folder it names.
    expect(readFileSync(parent.path("approved.txt"), "utf8")).toBe("approved\n")
    expect(readFileSync(`${ws()}/.git/config`, "utf8")).toBe(gitConfig)
    expect(readFileSync(`${ws()}/.envrc`, "utf8")).toBe("export A=1\n")
    expect(existsSync(`${ws()}/AGENTS.md`)).toBe(false)
    expect(existsSync(`${ws()}/.vscode`)).toBe(false)
    expect(readFileSync(`${home()}/.bashrc`, "utf8")).toBe("# the user's\n")
    expect(existsSync(`${home()}/.config/fish`)).toBe(false)
    expect(existsSync(`${home()}/.profile`)).toBe(false)
    expect(result.output).toMatch(/Read-only file system|Permission denied/)
  })

  it("still writes a protected path the approval names exactly", async () => {
    await run(`echo approved >> ${home()}/.bashrc; echo 'export B=2' > .envrc`, [`${home()}/.bashrc`, `${ws()}/.envrc`])
    expect(readFileSync(`${home()}/.bashrc`, "utf8")).toBe("# the user's\napproved\n")
    expect(readFileSync(`${ws()}/.envrc`, "utf8")).toBe("export B=2\n")
    writeFileSync(`${home()}/.bashrc`, "# the user's\n")
    writeFileSync(`${ws()}/.envrc`, "export A=1\n")
  })

  it("keeps an approved home's credential folders hidden while its other files are writable", async () => {
    mkdirSync(`${home()}/.ssh`, { recursive: true })
    writeFileSync(`${home()}/.ssh/id_ed25519`, "PRIVATE-KEY-CONTENT\n")
    const result = await run(`cat ${home()}/.ssh/id_ed25519; echo more >> ${home()}/notes.txt`, [home()])
    expect(result.output).not.toContain("PRIVATE-KEY-CONTENT")
    expect(readFileSync(`${home()}/notes.txt`, "utf8")).toBe("mine\nmore\n")
  })
})
