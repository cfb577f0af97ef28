import { beforeAll, describe, expect, it } from "vitest"
import { decideApproval, decideCommand, isProtectedPath, suggestedPrefix, TaskApprovals } from "../../../server/src/approval"
import { parseCommandLine } from "../../../server/src/shell"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"
import type { ApprovalSubject } from "../../../server/src/tools/context"
import { defaultSettings, type Settings } from "../../../server/src/config/schema"

function decide(subject: ApprovalSubject, tweak: (s: Settings) => void = () => {}, remembered = new TaskApprovals()) {
  const settings = defaultSettings()
  tweak(settings)
  return decideApproval("tool", subject, {
    settings,
    workspaceFolders: ["/ws"],
    remembered,
    protectedDirs: ["/home/u/.config/agent-lsp"],
    sandbox: { available: true },
  }).decision
}

beforeAll(async () => {
  await loadShellParser()
})

describe("decideCommand", () => {
  const allow = ["npm test", "git", "ls", "./scripts/", "echo", "cat", "timeout", "xargs"]
  const deny = ["git push", "rm"]

  it.each([
    ["npm test", "allow"],
    ["npm test -- --watch", "allow"],
    ["NPM  Test", "allow"],
    ["npm testing", "ask"],
    ["npm 'test'", "allow"],
    ["git status && ls -la", "allow"],
    ["ls -la | cat", "allow"],
    ["git push origin main", "deny"],
    ["git status; git push", "deny"],
    ["ls $(rm -rf /)", "deny"],
    ["ls `rm x`", "deny"],
    ["ls | xargs rm", "deny"],
    ["if true; then rm -rf x; fi", "deny"],
    ["gitk", "ask"],
    ["./scripts/build.sh", "allow"],
    ['ls && eval "$X"', "ask"],
    ["ls ${!ref}", "ask"],
    ['ls "${PS1@P}"', "ask"],
    ["", "ask"],
    ["sudo rm -rf /", "deny"],
    ["/bin/rm -rf /", "deny"],
    ["sudo -u root rm -rf /", "deny"],
    ["env FOO=1 rm x", "deny"],
    ["FOO=1 rm x", "deny"],
    ["find . -name '*.o' | xargs -I {} rm {}", "deny"],
    ["find . -exec rm {} +", "deny"],
    ["timeout 5 git push", "deny"],
    ["nice -n 5 ls", "allow"],
    ["sudo ls", "ask"],
    ["timeout 5 ls", "allow"],
    ["time -o victim ls", "ask"],
    ["time --output=victim ls", "ask"],
    ["time -p ls", "allow"],
    ["env", "ask"],
    ["exec 3>&-", "ask"],
    ["env A=1", "ask"],
    ["timeout 5 npm install", "ask"],
    ["bash -c 'git push'", "deny"],
    ['sh -c "echo \\"$(rm x)\\""', "deny"],
    ["eval 'r''m x'", "deny"],
    ["'r'm x", "deny"],
    ["r\\m x", "deny"],
    ["ls () { rm v; }; ls", "deny"],
    ["ls () { touch v; }; ls", "ask"],
    ["echo `echo \\`touch x\\``", "ask"],
    ["echo $[$(touch x)]", "ask"],
    ["ls\\ -la", "ask"],
    ["echo =(touch x)", "ask"],
    ["ls *(e:'touch x':)", "ask"],
    ["$X status", "ask"],
    ["PATH=. ls", "ask"],
    ["GIT_CONFIG_PARAMETERS=\"'core.pager=touch x'\" git log", "ask"],
    ["x=1; ls", "ask"],
    // git's -c wins over the hardening in the environment: the fsmonitor command runs (read as a command).
    ["git -c core.fsmonitor='touch x' status", "ask"],
    ["git -c core.fsmonitor='rm x' status", "deny"],
    ["git -c core.fsmonitor=false status", "ask"],
    ["git -c color.ui=never status", "allow"],
    ["echo hi > f", "ask"],
    ["echo hi 2>&1 >/dev/null", "allow"],
    ["xargs touch", "ask"],
    ["python3 x.py", "ask"],
  ])("%j → %s", (command, expected) => {
    expect(decideCommand(command, allow, deny).decision).toBe(expected)
  })

  it("lets the longest prefix win and denies on a tie", () => {
    expect(decideCommand("git push --dry-run", ["git push --dry-run"], ["git push"]).decision).toBe("allow")
    expect(decideCommand("git push", ["git push"], ["git push"]).decision).toBe("deny")
    expect(decideCommand("anything", ["*"], []).decision).toBe("allow")
    expect(decideCommand("anything", ["*"], ["*"]).decision).toBe("deny")
  })

  it("names the denied part and prefix", () => {
    expect(decideCommand("ls && rm -rf x", ["ls"], ["rm"])).toEqual({ decision: "deny", command: "rm -rf x", prefix: "rm" })
    expect(decideCommand("sudo rm -rf x", ["ls"], ["rm"])).toEqual({ decision: "deny", command: "rm -rf x (run by sudo)", prefix: "rm" })
  })

  it("matches argv words, not raw text", () => {
    expect(decideCommand("git status", ["git status"], []).decision).toBe("allow")
    expect(decideCommand("git  'status' --short", ["git status"], []).decision).toBe("allow")
    expect(decideCommand("git statusx", ["git status"], []).decision).toBe("ask")
    expect(decideCommand('git "status; rm x"', ["git status"], []).decision).toBe("ask")
    expect(decideCommand("git $(echo status)", ["git status"], []).decision).toBe("ask")
  })
})

describe("suggestedPrefix", () => {
  const first = (text: string) => parseCommandLine(text).commands[0]!

  it("suggests the program and its subcommand", () => {
    expect(suggestedPrefix(first("npm test -- -t x"))).toBe("npm test")
    expect(suggestedPrefix(first("ls -la"))).toBe("ls")
    expect(suggestedPrefix(first("./build.sh --fast"))).toBe("./build.sh")
  })

  it("remembers the whole command for an interpreter, quoting words with spaces", () => {
    expect(suggestedPrefix(first("python3 script.py --fast"))).toBe("python3 script.py --fast")
    expect(suggestedPrefix(first("node x.js"))).toBe("node x.js")
    expect(suggestedPrefix(first("bash x.sh"))).toBe("bash x.sh")
    expect(suggestedPrefix(first("npx pkg"))).toBe("npx pkg")
    expect(suggestedPrefix(first("pnpm dlx create-thing"))).toBe("pnpm dlx create-thing")
    expect(suggestedPrefix(first("npm exec foo"))).toBe("npm exec foo")
    expect(suggestedPrefix(first("python3 -c 'print(1)'"))).toBe("python3 -c 'print(1)'")
  })

  it("a remembered interpreter command allows that command only", () => {
    const remembered = suggestedPrefix(first("python3 -c 'print(1)'"))!
    expect(decideCommand("python3 -c 'print(1)'", [remembered], []).decision).toBe("allow")
    expect(decideCommand("python3 -c 'print(2)'", [remembered], []).decision).toBe("ask")
    expect(decideCommand("python3 evil.py", ["python3 script.py"], []).decision).toBe("ask")
  })

  it("suggests nothing for dynamic words or commands that set variables", () => {
    expect(suggestedPrefix(first("$X a"))).toBeUndefined()
    expect(suggestedPrefix(first("FOO=1 make"))).toBeUndefined()
  })
})

describe("decideApproval", () => {
  it("auto-approves reads inside the workspace by default and asks outside it", () => {
    expect(decide({ kind: "read", paths: ["a"] })).toBe("allow")
    expect(decide({ kind: "read", paths: ["/etc/passwd"], outsideWorkspace: true })).toBe("ask")
    expect(decide({ kind: "read", paths: ["a"] }, (s) => (s.autoApprove.read = false))).toBe("ask")
  })

  it("follows autoApprove.write, mcp, modeSwitch and subtasks", () => {
    expect(decide({ kind: "write", paths: ["a"] })).toBe("ask")
    expect(decide({ kind: "write", paths: ["a"] }, (s) => (s.autoApprove.write = true))).toBe("allow")
    expect(decide({ kind: "mcp", server: "s", tool: "t" })).toBe("ask")
    // MCP runs without asking only with autoApprove.mcp AND the tool in the server's alwaysAllow (issue 7).
    expect(decide({ kind: "mcp", server: "s", tool: "t" }, (s) => (s.autoApprove.mcp = true))).toBe("ask")
    expect(decide({ kind: "mcp", server: "s", tool: "t" }, (s) => (s.mcpServers = { s: { command: "x", alwaysAllow: ["t"] } }))).toBe("ask")
    expect(
      decide({ kind: "mcp", server: "s", tool: "t" }, (s) => {
        s.autoApprove.mcp = true
        s.mcpServers = { s: { command: "x", alwaysAllow: ["t"] } }
      }),
    ).toBe("allow")
    // Tool annotations: a trusted read-only tool is a read; a destructive one is never auto-approved by settings.
    expect(decide({ kind: "mcp", server: "s", tool: "t", readOnly: true })).toBe("allow")
    expect(decide({ kind: "mcp", server: "s", tool: "t", readOnly: true }, (s) => (s.autoApprove.read = false))).toBe("ask")
    expect(
      decide({ kind: "mcp", server: "s", tool: "t", destructive: true }, (s) => {
        s.autoApprove.mcp = true
        s.mcpServers = { s: { command: "x", alwaysAllow: ["t", "*"] } }
      }),
    ).toBe("ask")
    const allowedInTask = new TaskApprovals()
    allowedInTask.allowedTools.add("tool")
    expect(decide({ kind: "mcp", server: "s", tool: "t", destructive: true }, () => {}, allowedInTask)).toBe("allow")
    expect(decide({ kind: "modeSwitch", mode: "code" })).toBe("ask")
    expect(decide({ kind: "modeSwitch", mode: "code" }, (s) => (s.autoApprove.modeSwitch = true))).toBe("allow")
    expect(decide({ kind: "subtask", mode: "code" })).toBe("ask")
    expect(decide({ kind: "subtask", mode: "code" }, (s) => (s.autoApprove.subtasks = true))).toBe("allow")
    expect(decide({ kind: "none" })).toBe("allow")
  })

  it("asks before writing a protected file whatever else says yes", () => {
    const remembered = new TaskApprovals()
    remembered.allowTool("tool")
    expect(decide({ kind: "write", paths: ["docs/a.md", ".roo/rules.md"] }, (s) => (s.autoApprove.write = true), remembered)).toBe("ask")
  })

  it("uses what the user allowed always in this task", () => {
    const remembered = new TaskApprovals()
    remembered.allowCommands(["npm test"])
    expect(decide({ kind: "command", command: "npm test", cwd: "." }, () => {}, remembered)).toBe("allow")
    expect(decide({ kind: "command", command: "npm test && rm x", cwd: "." }, (s) => (s.terminal.deny = ["rm"]), remembered)).toBe("deny")
  })
})

describe("decideApproval: redirections are writes", () => {
  const command = (line: string, extra: Partial<Extract<ApprovalSubject, { kind: "command" }>> = {}): ApprovalSubject => ({
    kind: "command",
    command: line,
    cwd: ".",
    absoluteCwd: "/ws",
    ...extra,
  })
  const allowEcho = (s: Settings) => (s.terminal.allow = ["echo", "ls", "git status", "cat", "cd"])
  const writesToo = (s: Settings) => {
    allowEcho(s)
    s.autoApprove.write = true
  }

  it("asks before a redirection writes a file unless writes are auto-approved", () => {
    for (const line of ["echo hi > f", "echo hi >> f", "echo hi >| f", "ls &> f", "ls &>> f", "ls >& f", "ls 2> f", "{ ls; } > f"]) {
      expect(decide(command(line), allowEcho), line).toBe("ask")
      expect(decide(command(line), writesToo), line).toBe("allow")
    }
  })

  it("lets output to /dev/null, fd duplications and input redirections through", () => {
    for (const line of ["echo hi 2>&1 >/dev/null", "ls 2>/dev/null", "cat < f", "ls >&2", "ls 3>&-", "cat <<EOF\nx\nEOF", "cat <<< x"]) {
      expect(decide(command(line), allowEcho), line).toBe("allow")
    }
  })

  it("asks for protected targets, targets outside the workspace and targets it cannot name, whatever autoApprove.write says", () => {
    for (const line of [
      "ls > .git/config",
      "ls > .vscode/settings.json",
      "echo x >> AGENTS.md",
      "ls > /etc/x",
      "ls > ../x",
      "ls > $(echo f)",
      "ls > $F",
      "ls > ~/.bashrc",
      "cd .git && echo x > config",
    ]) {
      expect(decide(command(line), writesToo), line).toBe("ask")
    }
    expect(decide(command("echo x > sub/config"), writesToo)).toBe("allow")
  })

  it("checks the real paths the tool resolved for the targets (a symlink into .git)", () => {
    expect(decide(command("echo x > link", { writePaths: ["/ws/.git/config"] }), writesToo)).toBe("ask")
  })

  it("offers to remember nothing when only the write needs asking", () => {
    const settings = defaultSettings()
    allowEcho(settings)
    const decision = decideApproval("execute_command", command("echo hi > f"), {
      settings,
      workspaceFolders: ["/ws"],
      remembered: new TaskApprovals(),
      protectedDirs: [],
    })
    expect(decision).toMatchObject({ decision: "ask", rememberPrefixes: [] })
    expect(decision.reason).toMatch(/writes \/ws\/f \(a redirection or a writing option\), and writes are not auto-approved/)
  })
})

describe("isProtectedPath", () => {
  it.each([
    [".rooignore", true],
    [".roomodes", true],
    ["sub/.roomodes", true],
    ["AGENTS.md", true],
    ["docs/agents.md", true],
    [".roo/rules/x.md", true],
    [".vscode/settings.json", true],
    [".git/hooks/pre-commit", true],
    ["src/../.git/config", true],
    ["/ws/.vscode/launch.json", true],
    ["/home/u/.config/agent-lsp/settings.json", true],
    ["src/index.ts", false],
    ["README.md", false],
    [".github/workflows/ci.yml", false],
    ["src/.gitignore", false],
  ])("%s → %s", (path, expected) => {
    expect(isProtectedPath(path, ["/ws"], ["/home/u/.config/agent-lsp"])).toBe(expected)
  })
})
