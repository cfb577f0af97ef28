import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decideApproval, decideCommand, isProtectedPath, TaskApprovals } from "../../../server/src/approval"
import { defaultSettings, type Settings } from "../../../server/src/config/schema"
import { WRITE_RULES } from "../../../server/src/shell"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"
import { writesTable } from "./writes-table"
import type { PolicyDecision } from "../../../server/src/approval/types"

function decide(command: string, tweak: (s: Settings) => void = () => {}, folder = "/ws"): PolicyDecision {
  const settings = defaultSettings()
  tweak(settings)
  return decideApproval(
    "execute_command",
    { kind: "command", command, cwd: ".", absoluteCwd: folder },
    { settings, workspaceFolders: [folder], remembered: new TaskApprovals(), protectedDirs: [], sandbox: { available: true } },
  )
}

const allowAll = (s: Settings) => {
  s.terminal.allow = ["*"]
  s.autoApprove.write = true
}

beforeAll(async () => {
  await loadShellParser()
})

describe("options and operands that write files count as writes", () => {
  it.each([
    ["git log --output=.git/config", "/ws/.git/config"],
    ["git diff --output .git/config", "/ws/.git/config"],
    ["git show --output=/tmp/x", "/tmp/x"],
    ["git format-patch -o/etc HEAD~1", "/etc"],
    ["sort -o /etc/passwd x", "/etc/passwd"],
    ["sort -ro /etc/passwd x", "/etc/passwd"],
    ["tee -a /tmp/log", "/tmp/log"],
    ["sed -i s/a/b/ .roomodes", "/ws/.roomodes"],
    ["sed -i.bak -e s/a/b/ .vscode/settings.json", "/ws/.vscode/settings.json"],
    ["cp a /tmp/b", "/tmp/b"],
    ["cp -t /tmp a b", "/tmp"],
    ["mv a /tmp/", "/tmp"],
    ["install -m 755 a /usr/local/bin/a", "/usr/local/bin/a"],
    ["ln -s a /tmp/l", "/tmp/l"],
    ["dd if=a of=/dev/sda", "/dev/sda"],
    ["curl -sSLo /tmp/x http://h/", "/tmp/x"],
    ["curl --output=/tmp/x http://h/", "/tmp/x"],
    ["wget -O /tmp/x http://h/", "/tmp/x"],
    ["wget -P /tmp http://h/", "/tmp"],
    ["touch /tmp/x", "/tmp/x"],
    ["mkdir -p /tmp/d", "/tmp/d"],
    ["rm -f /tmp/x", "/tmp/x"],
    ["rmdir /tmp/d", "/tmp/d"],
    ["truncate -s 0 /tmp/x", "/tmp/x"],
    ["chmod 755 /tmp/x", "/tmp/x"],
    ["chown me /tmp/x", "/tmp/x"],
    ["set -o history; echo x; history -w .git/hooks/pre-commit", "/ws/.git/hooks/pre-commit"],
  ])("%s asks, naming %s, even with every command allowed and writes auto-approved", (command, named) => {
    const decision = decide(command, allowAll)
    expect(decision.decision).toBe("ask")
    expect(decision.reason).toContain(`writes ${named}`)
  })

  it.each([
    ["tar -xf a.tar", /files named at run time/],
    ["tar xzf a.tgz -C sub", /files named at run time under sub/],
    ["unzip a.zip -d out", /files named at run time under out/],
    ["patch -p1 < fix.diff", /files named at run time/],
    ["find . -name x -delete", /files named at run time/],
    ["rm $X", /named at run time/],
    ["ls | xargs rm", /named at run time/],
  ])("%s writes files named at run time, so it asks", (command, reason) => {
    const decision = decide(command, allowAll)
    expect(decision.decision).toBe("ask")
    expect(decision.reason).toMatch(reason)
  })

  it("follows autoApprove.write for a writing option inside the workspace", () => {
    expect(decide("sort -o out.txt in.txt", allowAll).decision).toBe("allow")
    expect(decide("rm build/x.o", allowAll).decision).toBe("allow")
    expect(decide("cp a b", allowAll).decision).toBe("allow")
    const notAuto = decide("sort -o out.txt in.txt", (s) => (s.terminal.allow = ["sort"]))
    expect(notAuto.decision).toBe("ask")
    expect(notAuto.reason).toMatch(/writes \/ws\/out.txt .*writes are not auto-approved/)
  })

  it("does not count reading, listing or standard output as writes", () => {
    for (const command of [
      "git log --oneline",
      "sort x",
      "sed s/a/b/ x",
      "wget -qO- http://h/",
      "curl http://h/",
      "unzip -l a.zip",
      "tar -tf a.tar",
      "cat x",
    ]) {
      expect(decide(command, allowAll).decision, command).toBe("allow")
    }
  })

  it("decideCommand without a workspace asks for every writing option", () => {
    expect(decideCommand("git log --output=x", ["git log"], []).decision).toBe("ask")
  })
})

describe(". and source", () => {
  it("asks for . ./x.sh as for source ./x.sh", () => {
    const allow = ["echo", "ls"]
    expect(decideCommand(". ./x.sh", allow, []).decision).toBe("ask")
    expect(decideCommand("source ./x.sh", allow, []).decision).toBe("ask")
  })

  it("runs a script only when the whole command is allowed, never by a bare . or source prefix", () => {
    for (const prefix of [".", "source"]) {
      expect(decideCommand(". ./x.sh", [prefix], []).decision, prefix).toBe("ask")
      expect(decideCommand("source ./x.sh", [prefix], []).decision, prefix).toBe("ask")
    }
    expect(decideCommand(". ./env.sh", ["source ./env.sh"], []).decision).toBe("allow")
    expect(decideCommand("source ./env.sh", [". ./env.sh"], []).decision).toBe("allow")
    expect(decideCommand(". ./other.sh", ["source ./env.sh"], []).decision).toBe("ask")
  })

  it("denies . when source is denied, and source when . is", () => {
    expect(decideCommand(". ./x.sh", ["*"], ["source"]).decision).toBe("deny")
    expect(decideCommand("source ./x.sh", ["*"], ["."]).decision).toBe("deny")
  })
})

describe("a folder that looks like a git repository", () => {
  const root = mkdtempSync(join(tmpdir(), "bare-looking-"))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  mkdirSync(join(root, "vendor/lib/objects"), { recursive: true })
  mkdirSync(join(root, "vendor/lib/refs"), { recursive: true })
  writeFileSync(join(root, "vendor/lib/HEAD"), "ref: refs/heads/main\n")
  mkdirSync(join(root, "src"))

  it("is protected like .git: writing its config asks even with writes auto-approved", () => {
    expect(isProtectedPath(join(root, "vendor/lib/config"), [root])).toBe(true)
    expect(isProtectedPath("vendor/lib/hooks/pre-commit", [root])).toBe(true)
    expect(isProtectedPath(join(root, "src/a.ts"), [root])).toBe(false)
    const decision = decide("echo '[core] fsmonitor = ./x' > vendor/lib/config", allowAll, root)
    expect(decision.decision).toBe("ask")
    expect(decision.reason).toMatch(/protected file/)
  })
})

describe("docs/command-writes.md", () => {
  it("shows exactly the table the policy uses", () => {
    const doc = readFileSync(new URL("../../../docs/command-writes.md", import.meta.url), "utf8")
    const shown = /<!-- writes-table:start -->\n([\s\S]*?)\n<!-- writes-table:end -->/.exec(doc)?.[1]
    expect(shown).toBe(writesTable(WRITE_RULES))
  })
})
