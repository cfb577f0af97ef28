import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { rm } from "node:fs/promises"
import { join } from "node:path"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type HostAsk, type SandboxPolicy, sandboxCommand } from "../../../server/src/sandbox"
import { setArtifactDir } from "../../../server/src/terminal/artifacts"
import { startSandboxed, tempHome } from "../../support/sandboxed-command"
import { type TempWorkspace, tempWorkspace } from "../../support/temp-workspace"

/**
 * Each boundary of the OS sandbox, proved by a real command in real bubblewrap trying to cross it.
 */

let ws: TempWorkspace
let outside: TempWorkspace
let home: TempWorkspace
let artifacts: TempWorkspace

beforeAll(async () => {
  ws = await tempWorkspace({
    "src/a.txt": "hello\n",
    ".rooignore": "secret.txt\nsecrets/\n",
    "secret.txt": "TOPSECRET-FILE\n",
    "secrets/key.pem": "TOPSECRET-DIR\n",
    ".envrc": "export A=1\n",
    "sub/.vscode/settings.json": "{}\n",
  })
  symlinkSync("secret.txt", ws.path("link-to-secret"))
  execFileSync("git", ["init", "-q"], { cwd: ws.root })
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init"], { cwd: ws.root })
  // Outside /tmp: the sandbox shows its own private /tmp, so a host /tmp path would not even be found.
  const outsideRoot = realpathSync(mkdtempSync("/var/tmp/agent-lsp-outside-"))
  writeFileSync(join(outsideRoot, "existing.txt"), "untouched\n")
  outside = { root: outsideRoot, path: (rel) => join(outsideRoot, rel), cleanup: () => rm(outsideRoot, { recursive: true, force: true }) }
  home = await tempHome({
    ".ssh/id_ed25519": "PRIVATE-KEY-CONTENT\n",
    ".aws/credentials": "AWS-SECRET\n",
    ".netrc": "NETRC-SECRET\n",
    "notes.txt": "NOT-A-SECRET\n",
    // Tokens, a browser profile and a history beside what builds and tools need in the same folders.
    ".cargo/credentials.toml": "CARGO-TOKEN-SECRET\n",
    ".cargo/registry/index.txt": "CARGO-REGISTRY-VISIBLE\n",
    ".claude/.credentials.json": "CLAUDE-LOGIN-SECRET\n",
    ".claude/settings.json": "CLAUDE-SETTINGS-VISIBLE\n",
    ".codex/auth.json": "CODEX-LOGIN-SECRET\n",
    ".config/google-chrome/Default/Cookies": "BROWSER-COOKIE-SECRET\n",
    ".mozilla/firefox/x.default/logins.json": "FIREFOX-LOGIN-SECRET\n",
    ".bash_history": "export TOKEN=HISTORY-SECRET\n",
    ".local/share/fish/fish_history": "- cmd: curl -H 'Authorization: FISH-HISTORY-SECRET'\n",
    ".m2/settings.xml": "<password>MAVEN-SECRET</password>\n",
    ".config/mytool/token": "MYTOOL-SECRET\n",
  })
  artifacts = await tempWorkspace()
  setArtifactDir(artifacts.root)
})

afterAll(async () => {
  setArtifactDir(undefined)
  for (const dir of [ws, outside, home, artifacts]) await dir?.cleanup()
})

function policy(extra: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return { workspaceFolders: [ws.root], home: home.root, network: { allowedHosts: [] }, ...extra }
}

/** Runs `command` sandboxed in the workspace; resolves with its exit code and whole output. */
function run(command: string, extra: Partial<SandboxPolicy> = {}): Promise<{ code: number | null; output: string }> {
  return startSandboxed(command, { ...policy(extra), home: home.root }).done
}

describe("the OS sandbox", () => {
  it("lets a command write inside the workspace and its private /tmp", async () => {
    const result = await run("echo made > src/new.txt && echo t > /tmp/t && cat /tmp/t")
    expect(result.code).toBe(0)
    expect(readFileSync(ws.path("src/new.txt"), "utf8")).toBe("made\n")
  })

  it("refuses a write outside the workspace, whatever the path looks like", async () => {
    const result = await run(`echo x > ${outside.path("new.txt")}; echo y >> ${outside.path("existing.txt")}; touch ~/planted`)
    expect(existsSync(outside.path("new.txt"))).toBe(false)
    expect(readFileSync(outside.path("existing.txt"), "utf8")).toBe("untouched\n")
    expect(existsSync(home.path("planted"))).toBe(false)
    expect(result.output).toMatch(/Read-only file system/)
  })

  it("shows a private /tmp: the host's /tmp files are neither readable nor writable", async () => {
    const result = await run(`ls ${artifacts.root}; echo x > ${artifacts.path("planted")}; echo END`)
    expect(existsSync(artifacts.path("planted"))).toBe(false)
    expect(result.output).toContain("No such file or directory")
  })

  it("keeps .git/config and .git/hooks read-only while git itself can still commit", async () => {
    const before = readFileSync(ws.path(".git/config"), "utf8")
    const result = await run(
      'echo "[core] fsmonitor = touch /tmp/pwned" >> .git/config; echo "#!/bin/sh" > .git/hooks/pre-commit; ' +
        "git config core.hooksPath /tmp; echo y >> .envrc; echo z > sub/.vscode/tasks.json; " +
        "git -c user.email=t@t -c user.name=t commit -q --allow-empty -m sandboxed && echo COMMITTED",
    )
    expect(readFileSync(ws.path(".git/config"), "utf8")).toBe(before)
    expect(existsSync(ws.path(".git/hooks/pre-commit"))).toBe(false)
    expect(readFileSync(ws.path(".envrc"), "utf8")).toBe("export A=1\n")
    expect(existsSync(ws.path("sub/.vscode/tasks.json"))).toBe(false)
    expect(result.output).toContain("COMMITTED")
    expect(execFileSync("git", ["log", "--format=%s", "-1"], { cwd: ws.root, encoding: "utf8" }).trim()).toBe("sandboxed")
  })

  it("binds exactly the write path the user approved, and nothing beside it", async () => {
    const approved = outside.path("approved.txt")
    await run(`echo ok > ${approved}; echo no > ${outside.path("other.txt")}`, { extraWritablePaths: [approved] })
    expect(readFileSync(approved, "utf8")).toBe("ok\n")
    expect(existsSync(outside.path("other.txt"))).toBe(false)
  })

  const readCredentials = "cat ~/.ssh/id_ed25519 ~/.aws/credentials ~/.netrc; ls -a ~/.ssh; cat ~/.ssh/*; cat ~/notes.txt"
  const expectCredentialsHidden = (output: string) => {
    expect(output).not.toContain("PRIVATE-KEY-CONTENT")
    expect(output).not.toContain("AWS-SECRET")
    expect(output).not.toContain("NETRC-SECRET")
    // The rest of the home is there to read: the masks hide the credentials, not the whole home.
    expect(output).toContain("NOT-A-SECRET")
  }

  it("hides the credential folders of the user's home", async () => {
    expectCredentialsHidden((await run(readCredentials)).output)
  })

  it("hides tokens, AI agents' logins, browser profiles and histories, not the folders around them", async () => {
    const { output } = await run(
      "cat ~/.cargo/credentials.toml ~/.claude/.credentials.json ~/.codex/auth.json ~/.config/google-chrome/Default/Cookies " +
        "~/.mozilla/firefox/*/logins.json ~/.bash_history ~/.local/share/fish/fish_history ~/.m2/settings.xml; " +
        "grep -r SECRET ~ 2>/dev/null; cat ~/.cargo/registry/index.txt ~/.claude/settings.json ~/.config/mytool/token",
    )
    for (const secret of [
      "CARGO-TOKEN",
      "CLAUDE-LOGIN",
      "CODEX-LOGIN",
      "BROWSER-COOKIE",
      "FIREFOX-LOGIN",
      "HISTORY-SECRET",
      "FISH-HISTORY",
      "MAVEN",
    ])
      expect(output).not.toContain(secret)
    // The control: the same folders' other files, and a token the defaults do not know, are there to read.
    expect(output).toContain("CARGO-REGISTRY-VISIBLE")
    expect(output).toContain("CLAUDE-SETTINGS-VISIBLE")
    expect(output).toContain("MYTOOL-SECRET")
  })

  it("hides the paths of agent.sandbox.hiddenPaths and shows the defaults named in visiblePaths, nothing else", async () => {
    const read = "cat ~/.config/mytool/token ~/.m2/settings.xml ~/.cargo/credentials.toml ~/.ssh/id_ed25519"
    const { output } = await run(read, {
      hiddenPaths: ["~/.config/mytool/token"],
      visiblePaths: ["~/.m2/settings.xml", `${home.root}/.ssh/`],
    })
    expect(output).not.toContain("MYTOOL-SECRET")
    expect(output).toContain("MAVEN-SECRET")
    // visiblePaths names exactly what it shows: not the other defaults (the trailing slash is the same path).
    expect(output).toContain("PRIVATE-KEY-CONTENT")
    expect(output).not.toContain("CARGO-TOKEN-SECRET")
  })

  it("hides the credential folders when a workspace folder is the home itself, or holds it", async () => {
    // An editor opened on ~ (or on the folder above it) makes the home a writable workspace folder.
    expectCredentialsHidden((await run(readCredentials, { workspaceFolders: [home.root] })).output)
    const above = await tempHome({ "me/.ssh/id_ed25519": "PRIVATE-KEY-CONTENT\n", "me/notes.txt": "NOT-A-SECRET\n" })
    try {
      const inner = above.path("me")
      const policy = { workspaceFolders: [ws.root, above.root], home: inner, network: { allowedHosts: [] } }
      expectCredentialsHidden((await startSandboxed(readCredentials, policy).done).output)
    } finally {
      await above.cleanup()
    }
  })

  it("hides the credential folders when the user approved writing to the home", async () => {
    expectCredentialsHidden((await run(readCredentials, { extraWritablePaths: [home.root] })).output)
  })

  it("masks .rooignored files and folders, through a symlink, a glob and a dynamic word too", async () => {
    const result = await run(
      'cat link-to-secret; cat secr*; cat secrets/*; f=secret; cat "$f.txt"; cat $(echo c2VjcmV0LnR4dA== | base64 -d)',
    )
    expect(result.output).not.toContain("TOPSECRET")
    expect(readFileSync(ws.path("secret.txt"), "utf8")).toBe("TOPSECRET-FILE\n")
  })

  describe("other processes", () => {
    let victim: ChildProcess
    beforeAll(() => {
      victim = spawn("sleep", ["60"], { env: { ...process.env, VICTIM_TOKEN: "sk-victim-secret-123" }, stdio: "ignore" })
    })
    afterAll(() => victim.kill("SIGKILL"))

    it("cannot read another process's environment: /proc shows only the sandbox's own processes", async () => {
      expect(readFileSync(`/proc/${victim.pid}/environ`, "utf8")).toContain("sk-victim-secret-123")
      const result = await run(`cat /proc/${victim.pid}/environ; tr '\\0' '\\n' < /proc/1/environ; ls /proc | grep -c '^[0-9]'`)
      expect(result.output).not.toContain("sk-victim-secret-123")
      const count = Number(result.output.trim().split("\n").pop())
      expect(count).toBeLessThan(10)
    })
  })

  describe("network", () => {
    let server: Server
    let url: string
    beforeAll(async () => {
      server = createServer((_req, res) => res.end("LOOPBACK-BODY"))
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    })
    afterAll(() => server.close())

    it("refuses a host that is neither allowed nor approved, and reaches it with no proxy at all never", async () => {
      const result = await run(`curl -s -m 5 ${url}; curl -s -m 5 --noproxy '*' ${url}; echo END`)
      expect(result.output).not.toContain("LOOPBACK-BODY")
      expect(result.output).toContain("END")
    })

    it("reaches a host in allowedHosts, over plain HTTP and a CONNECT tunnel", async () => {
      const result = await run(`curl -s -m 5 ${url}; echo; curl -s -m 5 -p ${url}`, { network: { allowedHosts: ["127.0.0.1"] } })
      expect(result.output.match(/LOOPBACK-BODY/g)?.length).toBe(2)
    })

    it("asks about another host once per command, and obeys the answer", async () => {
      const asked: string[] = []
      const asker =
        (answer: "once" | "deny"): HostAsk =>
        async ({ host, port }) => {
          asked.push(`${host}:${port}`)
          return answer
        }
      const allowed = await run(`curl -s -m 5 ${url}; curl -s -m 5 ${url}`, { network: { allowedHosts: [], ask: asker("once") } })
      expect(allowed.output.match(/LOOPBACK-BODY/g)?.length).toBe(2)
      expect(asked).toEqual([`127.0.0.1:${new URL(url).port}`])
      const refused = await run(`curl -s -m 5 ${url}; echo END`, { network: { allowedHosts: [], ask: asker("deny") } })
      expect(refused.output).not.toContain("LOOPBACK-BODY")
      expect(refused.output).toContain("END")
      expect(asked).toHaveLength(2)
    })
  })

  describe("privileges", () => {
    const LIFT =
      "umount .git/config; umount ~/.ssh; umount secrets; mount -o remount,rw /; mount -t tmpfs none /mnt; " +
      "echo '[core] fsmonitor = evil' >> .git/config; cat ~/.ssh/id_ed25519 secrets/key.pem; echo x > /etc/agent-lsp-planted; echo done"

    it("cannot unmount, remount or mount anything, even when the server runs as root", async () => {
      const before = readFileSync(ws.path(".git/config"), "utf8")
      const result = await run(LIFT)
      expect(result.output).toContain("done")
      expect(readFileSync(ws.path(".git/config"), "utf8")).toBe(before)
      expect(result.output).not.toContain("PRIVATE-KEY-CONTENT")
      expect(result.output).not.toContain("TOPSECRET")
      expect(existsSync("/etc/agent-lsp-planted")).toBe(false)
    })

    // The control: without `--cap-drop ALL`, bwrap started by root leaves root's capabilities to the command.
    it.skipIf(process.getuid?.() !== 0)(
      "lifts a read-only bind without the capability drop (the control: the test above can fail)",
      async () => {
        const victim = await tempWorkspace({ "keep.txt": "k\n" })
        try {
          execFileSync("git", ["init", "-q"], { cwd: victim.root })
          const config = readFileSync(victim.path(".git/config"), "utf8")
          // Only the workspace's own config: with root's capabilities the command could write anywhere on the host.
          const lift = "umount .git/config && echo '[core] fsmonitor = evil' >> .git/config"
          const command = sandboxCommand(
            ["/bin/bash", "--noprofile", "--norc", "-c", lift],
            victim.root,
            policy({ workspaceFolders: [victim.root] }),
          )
          const args = command.args.filter((arg, i, all) => !(arg === "--cap-drop" || (arg === "ALL" && all[i - 1] === "--cap-drop")))
          spawnSync(command.file, args, { encoding: "utf8" })
          command.dispose()
          expect(readFileSync(victim.path(".git/config"), "utf8")).not.toBe(config)
        } finally {
          await victim.cleanup()
        }
      },
    )
  })

  it("runs nothing when bwrap is missing (fails closed) and says how to fix it", async () => {
    const { resetSandboxStatus } = await import("../../../server/src/sandbox")
    process.env.AGENT_LSP_BWRAP = "/nonexistent/bwrap"
    try {
      const result = await run("touch src/ran-anyway")
      expect(result.code).toBe(127)
      expect(result.output).toContain("apt-get install bubblewrap")
      expect(existsSync(ws.path("src/ran-anyway"))).toBe(false)
    } finally {
      delete process.env.AGENT_LSP_BWRAP
      resetSandboxStatus()
    }
  })

  it("masks a .rooignored folder created after an earlier command (the scan notices new entries)", async () => {
    await run("true")
    mkdirSync(ws.path("secrets/later"), { recursive: true })
    writeFileSync(ws.path("secret-later.txt"), "LATER-SECRET\n")
    writeFileSync(ws.path(".rooignore"), "secret.txt\nsecrets/\nsecret-later.txt\n")
    const result = await run("cat secret-later.txt")
    expect(result.output).not.toContain("LATER-SECRET")
  })

  describe("after an earlier command, with the same .rooignore (the scan re-reads only changed folders)", () => {
    let repo: TempWorkspace
    beforeAll(async () => {
      repo = await tempWorkspace({ ".rooignore": "*.key\n", "deep/a/b/c.txt": "c\n", "deep/other/d.txt": "d\n" })
      execFileSync("git", ["init", "-q"], { cwd: repo.root })
      rmSync(repo.path(".git/hooks"), { recursive: true, force: true })
      expect((await run("true", { workspaceFolders: [repo.root] })).code).toBe(0) // the scan is cached now
    })
    afterAll(() => repo?.cleanup())

    it("masks an ignored file created deep in a folder since", async () => {
      writeFileSync(repo.path("deep/a/b/new.key"), "NEW-KEY-SECRET\n")
      const result = await run(`cat ${repo.path("deep/a/b/new.key")}`, { workspaceFolders: [repo.root] })
      expect(result.output).not.toContain("NEW-KEY-SECRET")
    })

    it("keeps a .git/hooks folder made since read-only", async () => {
      mkdirSync(repo.path(".git/hooks"))
      const result = await run(`echo '#!/bin/sh' > ${repo.path(".git/hooks/pre-commit")}`, { workspaceFolders: [repo.root] })
      expect(result.code).not.toBe(0)
      expect(existsSync(repo.path(".git/hooks/pre-commit"))).toBe(false)
    })
  })
})
