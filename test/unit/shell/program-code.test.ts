import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decideCommand } from "../../../server/src/approval"
import { parseCommandLine } from "../../../server/src/shell"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"

/**
 * Programs that run another program through an option or an inline script (server/src/shell/program-code.ts)
 * and shells reading their commands from a pipe (wrappers.ts). Each line first runs under the real bash in a
 * git repository with a file to read (the control: the hidden `touch` really runs), then, with the program
 * itself allowed and `touch` denied, the line is refused (the option's command is read and denied) or asks
 * (what it runs cannot be read).
 */

let dir: string
let mark: string
beforeAll(async () => {
  await loadShellParser()
  dir = mkdtempSync(join(tmpdir(), "program-code-"))
  mark = join(dir, "ran")
  writeFileSync(join(dir, "f.txt"), "needle\n")
  // rg --pre and sort --compress-program take a program, not a shell line: ./touch stands for any program.
  writeFileSync(join(dir, "touch"), `#!/bin/sh\n/usr/bin/touch '${mark}'\ncat\n`, { mode: 0o755 })
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" })
  git("init", "-q")
  git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "one")
})
// Retried: a program a line started (a compress program, a hook) may still be writing there for a moment.
afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }))

/** [what, line (MARK is the mark file), the program allowed, the decision with `touch` denied] */
const ATTACKS: [string, string, string, "deny" | "ask"][] = [
  ["rg --pre", "rg --pre ./touch needle f.txt", "rg", "deny"],
  ["rg --pre=", "rg --pre=./touch needle f.txt", "rg", "deny"],
  ["rg --pre= with a program decided at run time", "rg --pre=$PWD/touch needle f.txt", "rg", "ask"],
  ["sort --compress-program", "seq 1 400000 | sort -S 1K --compress-program=./touch > /dev/null", "sort", "deny"],
  ["tar --to-command", "tar -cf a.tar f.txt && tar -xf a.tar --to-command='touch MARK'", "tar", "deny"],
  ["tar --checkpoint-action=exec=", "tar -cf /dev/null f.txt --checkpoint=1 --checkpoint-action=exec='touch MARK'", "tar", "deny"],
  ["tar -I", "tar -cf b.tar -I 'touch MARK' f.txt", "tar", "deny"],
  ["git -c core.fsmonitor", "git -c core.fsmonitor='touch MARK' status", "git", "deny"],
  ["git -c alias with !", "git -c alias.x='!touch MARK' x", "git", "deny"],
  ["git rebase --exec", "git rebase -q --exec 'touch MARK' --root", "git", "deny"],
  ["git grep --open-files-in-pager", "git grep --untracked --open-files-in-pager='touch MARK' needle", "git", "deny"],
  ["git ls-remote --upload-pack", "git ls-remote --upload-pack='touch MARK; false' .", "git", "deny"],
  ["git fetch --upload-pack", "git fetch -q --upload-pack='touch MARK; false' .", "git", "deny"],
  ["git clone -u", "git clone -q -u 'touch MARK; false' . clone", "git", "deny"],
  ["git archive --exec", "git archive --exec='touch MARK; false' --remote=. HEAD", "git", "deny"],
  ["git push --receive-pack", "git push -q --receive-pack='touch MARK; false' . HEAD:refs/heads/x", "git", "deny"],
  ["nvim reading commands from its input", "printf ':!touch MARK\\n:qa!\\n' | nvim --clean f.txt", "nvim", "ask"],
  ["emacs --eval", "emacs --batch --eval '(shell-command \"touch MARK\")'", "emacs", "ask"],
  ["make --eval", "make -f /dev/null --eval='x: ; touch MARK' x", "make", "ask"],
  ["sqlite3's .shell", "sqlite3 :memory: '.shell touch MARK'", "sqlite3", "ask"],
  ["sqlite3 reading dot-commands from its input", "sqlite3 :memory: <<< '.shell touch MARK'", "sqlite3", "ask"],
  ["git config writing an alias", "git config alias.st '!touch MARK' && git st", "git", "ask"],
  ["git's ext:: transport", "git -c protocol.ext.allow=always ls-remote 'ext::sh -c touch% MARK'", "git", "ask"],
  [
    "git -c core.hooksPath",
    "mkdir -p h && printf '#!/bin/sh\\ntouch MARK\\n' > h/pre-commit && chmod +x h/pre-commit && git -c core.hooksPath=h -c user.email=t@t -c user.name=t commit -q --allow-empty -m two",
    "git",
    "ask",
  ],
  ["sed's e command", "sed -n '1e touch MARK' f.txt", "sed", "ask"],
  ["sed's s///e flag", "echo x | sed 's|x|touch MARK|e'", "sed", "ask"],
  ["sed's w command", "sed -n 'w MARK' f.txt", "sed", "ask"],
  ["awk's system()", "awk 'BEGIN{system(\"touch MARK\")}'", "awk", "ask"],
  ["awk's pipe to a command", 'awk \'BEGIN{print "x" | "touch MARK"}\'', "awk", "ask"],
  ["awk's print > file", 'awk \'BEGIN{print "x" > "MARK"}\'', "awk", "ask"],
  ["a shell reading a pipe", "echo 'touch MARK' | bash", "bash", "ask"],
  ["a here-string to sh", "sh <<< 'touch MARK'", "sh", "ask"],
  ["bash -s", "echo 'touch MARK' | bash -s x", "bash", "ask"],
  ["bash /dev/stdin", "bash /dev/stdin <<< 'touch MARK'", "bash", "ask"],
  ["source of a pipe", "source /dev/stdin <<< 'touch MARK'", "source", "ask"],
  ["source of a process substitution", ". <(echo 'touch MARK')", ".", "ask"],
  ["fc -e", "set -o history; history -s x; fc -e 'touch MARK' -1", "fc", "ask"],
  ["strace", "strace -f -o /dev/null touch MARK", "strace", "deny"],
  ["unshare", "unshare -r touch MARK", "unshare", "deny"],
  ["script -c", "script -qc 'touch MARK' /dev/null", "script", "deny"],
  ["flock FILE -c", "flock lock -c 'touch MARK'", "flock", "deny"],
  ["script --command=", "script -q --command='touch MARK' /dev/null", "script", "deny"],
  // su and runuser pass the words after the user to that user's shell; with none, the shell reads its input.
  ["su USER -c", "su root -c 'touch MARK'", "su", "deny"],
  ["su - USER -c", "su - root -c 'touch MARK'", "su", "deny"],
  ["su --command=", "su --command='touch MARK'", "su", "deny"],
  ["su -lc glued to its command", "su -lc'touch MARK'", "su", "deny"],
  ["runuser USER -c", "runuser root -c 'touch MARK'", "runuser", "deny"],
  ["su reading a pipe", "echo 'touch MARK' | su", "su", "ask"],
  ["sg GROUP -c", "sg root -c 'touch MARK'", "sg", "ask"],
  ["npm exec -c", "npm exec --offline -c 'touch MARK'", "npm", "deny"],
  ["tmux new-session", "tmux -L agent-lsp-test new-session -d 'touch MARK' && sleep 1", "tmux", "ask"],
  ["gdb -ex shell", "gdb -batch -ex 'shell touch MARK'", "gdb", "ask"],
  ["perf stat", "perf stat -o /dev/null touch MARK", "perf", "ask"],
]

describe("a program that runs another through an option or a script", () => {
  it.each(ATTACKS)("%s", (_, template, program, decision) => {
    const line = template.replaceAll("MARK", mark)
    rmSync(mark, { force: true })
    try {
      execFileSync("/bin/bash", ["--noprofile", "--norc", "-c", line], { cwd: dir, stdio: "ignore", timeout: 20_000 })
    } catch {
      // Only the mark counts: some of these fail after running the hidden command.
    }
    expect(existsSync(mark), "control: the hidden command runs").toBe(true)
    const allow = ["echo", "seq", "mkdir", "printf", "chmod", "set", "history", "sleep", program]
    expect(decideCommand(line, allow, ["touch"]).decision).toBe(decision)
  })

  // Not installed here (or not runnable without a daemon): read only, from their manuals.
  it.each([
    ["echo 'touch x' | at now", "at", "ask"],
    ["batch <<< 'touch x'", "batch", "ask"],
    ["screen -dm touch x", "screen", "ask"],
    ["parallel ::: 'touch x'", "parallel", "ask"],
    ["echo '* * * * * touch x' | crontab -", "crontab", "ask"],
    ["expect -c 'spawn touch x'", "expect", "ask"],
    ["dtach -n /tmp/s touch x", "dtach", "ask"],
    ["ls | entr touch x", "entr", "ask"],
    ["npx -c 'touch x'", "npx", "deny"],
    ["npm --script-shell=./my-shell run build", "npm", "ask"],
    ["npm --script-shell ./touch run build", "npm", "deny"],
    ["npm_config_script_shell=./s npm run build", "npm", "ask"],
    ["chronic touch x", "chronic", "deny"],
    ["faketime '2020-01-01' touch x", "faketime", "deny"],
    ["echo 'touch x' | sudo -s", "sudo", "ask"],
    ["runuser -u nobody -- touch x", "runuser", "deny"],
  ] as const)("reads %s without running it (%s allowed, touch denied)", (line, program, decision) => {
    expect(decideCommand(line, ["echo", "ls", program], ["touch"]).decision).toBe(decision)
  })

  it("reads ssh's, rsync's and zip's command options without running them", () => {
    for (const line of [
      "ssh -o ProxyCommand='touch x' host",
      "rsync -avze 'touch x' a host:b",
      "rsync --rsh='touch x' a host:b",
      "zip -T -TT 'touch x' a.zip f",
    ])
      expect(decideCommand(line, ["ssh", "rsync", "zip"], ["touch"]).decision, line).toBe("deny")
  })

  it.each([
    "rg needle f.txt",
    "rg -n --hidden needle .",
    "sort -u f.txt",
    "tar -czf a.tgz f.txt",
    "git log --oneline -5",
    "git -c color.ui=never status",
    "git -C sub status",
    "git config --get user.name",
    "sqlite3 app.db 'select count(*) from t'",
    "make test",
    "emacs --version",
    "git config -l",
    "git config get core.pager",
    "git grep -n needle",
    "git fetch origin",
    "sed -n '/needle/p' f.txt",
    "sed 's/a/b/g' f.txt",
    "awk '{print $1}' f.txt",
    "awk '$3 > 100 {print}' f.txt",
    'awk \'$1 == "a" || $2 == "b"\' f.txt',
    "bash scripts/build.sh",
    "bash --version",
    "npm test",
    "npm run build -- --watch",
    "npx tsc --noEmit",
    "su -c 'make install'",
    "flock /tmp/build.lock make",
  ])("leaves %s understood", (line) => {
    expect(parseCommandLine(line).unknown).toEqual([])
  })
})
