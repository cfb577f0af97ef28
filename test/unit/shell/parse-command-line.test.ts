import { beforeAll, describe, expect, it } from "vitest"
import { parseCommandLine, type ParsedCommandLine } from "../../../server/src/shell"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"

beforeAll(async () => {
  await loadShellParser()
})

/** Each command's argv as one string (dynamic words in ‹›), in order. */
function argvs(line: ParsedCommandLine): string[] {
  return line.commands.map((c) => [...c.assignments, ...c.words.map((w) => (w.static ? w.text : `‹${w.text}›`))].join(" "))
}

describe("parseCommandLine: every simple command", () => {
  it.each<[string, string[]]>([
    ["git status", ["git status"]],
    ["ls -la | cat", ["ls -la", "cat"]],
    ["a && b || c; d & e |& f", ["a", "b", "c", "d", "e", "f"]],
    ["a\nb\n\nc", ["a", "b", "c"]],
    ["(cd x && ls) | { cat; wc -l; }", ["cd x", "ls", "cat", "wc -l"]],
    ["echo $(touch x)", ["touch x", "echo ‹$(touch x)›"]],
    ["echo `touch x`", ["touch x", "echo ‹`touch x`›"]],
    ["echo `echo \\`touch x\\``", ["touch x", "echo ‹`touch x`›", "echo ‹`echo \\`touch x\\``›"]],
    ['echo "a $(b "$(c)")"', ["c", 'b ‹"$(c)"›', 'echo ‹"a $(b "$(c)")"›']],
    ["echo $[$(touch x)]", ["touch x", "echo ‹$[$(touch x)]›"]],
    ["echo $((1 + $(touch x)))", ["touch x", "echo ‹$((1 + $(touch x)))›"]],
    ["echo ${v:-$(touch x)}", ["touch x", "echo ‹${v:-$(touch x)}›"]],
    ["cat <(ls) >(rm x)", ["ls", "rm x", "cat ‹<(ls)› ‹>(rm x)›"]],
    ["x=(a $(touch y))", ["x=(a $(touch y))", "touch y"]],
    ["[[ -f $(touch y) ]] && ls", ["touch y", "ls"]],
    ["cat <<EOF\n$(touch y)\nEOF", ["cat", "touch y"]],
    ['cat <<< "$(touch y)"', ["touch y", "cat"]],
    ["for f in $(ls); do rm $f; done", ["ls", "rm ‹$f›"]],
    ["while read l; do echo $l; done < f", ["read l", "echo ‹$l›"]],
    ["if true; then rm a; elif false; then rm b; else rm c; fi", ["true", "rm a", "false", "rm b", "rm c"]],
    ["case $x in a) rm a;; *) rm b;; esac", ["rm a", "rm b"]],
    ["select a in b; do rm c; done", ["rm c"]],
    ["! rm x", ["rm x"]],
    ["ls\\ -la; rm x", ["ls -la", "rm x"]],
    ["echo a\\\nb", ["echo ab"]],
    ["ec\\\nho hi", ["echo hi"]],
    ["'ls' \"-la\" $'A b'", ["ls -la A b"]],
    ['echo "a\\"b\\$c\\\\d"', ['echo a"b$c\\d']],
    ["echo {a,b} * ~/x", ["echo ‹{a,b}› ‹*› ‹~/x›"]],
    ["FOO=1 ls", ["FOO=1 ls"]],
    ["a=1; b=2", ["a=1", "b=2"]],
    ["export A=$(touch x)", ["touch x", "export ‹A=$(touch x)›"]],
    ["ls # a comment; rm x", ["ls"]],
  ])("%j", async (text, expected) => {
    const line = parseCommandLine(text)
    expect(argvs(line)).toEqual(expected)
    expect(line.unknown).toEqual([])
  })
})

describe("parseCommandLine: wrapped commands are listed on their own", () => {
  it.each<[string, string[]]>([
    ["sudo -u root rm x", ["sudo -u root rm x", "rm x"]],
    ["env -i A=1 rm x", ["env -i A=1 rm x", "A=1 rm x"]],
    ["env -S 'rm -rf x'", ["env -S rm -rf x", "rm -rf x"]],
    [
      "nice -n 5 nohup timeout -s KILL 5 rm x",
      ["nice -n 5 nohup timeout -s KILL 5 rm x", "nohup timeout -s KILL 5 rm x", "timeout -s KILL 5 rm x", "rm x"],
    ],
    ["time rm x", ["time rm x", "rm x"]],
    ["command -p rm x", ["command -p rm x", "rm x"]],
    ["builtin exec rm x", ["builtin exec rm x", "exec rm x", "rm x"]],
    ["stdbuf -oL ionice -c 3 rm x", ["stdbuf -oL ionice -c 3 rm x", "ionice -c 3 rm x", "rm x"]],
    ["doas -u root chroot /srv rm x", ["doas -u root chroot /srv rm x", "chroot /srv rm x", "rm x"]],
    ["xargs -0 -n 1 rm", ["xargs -0 -n 1 rm", "rm"]],
    ["find . -name '*.o' -exec rm {} \\; -ok touch y +", ["find . -name *.o -exec rm {} ; -ok touch y +", "rm ‹{}›", "touch y"]],
    ["eval 'rm x; touch y'", ["eval rm x; touch y", "rm x", "touch y"]],
    ["bash -c 'rm x'", ["bash -c rm x", "rm x"]],
    ['sh -ec "rm x"', ["sh -ec rm x", "rm x"]],
    ["/bin/sh -c 'sh -c \"rm x\"'", ['/bin/sh -c sh -c "rm x"', "sh -c rm x", "rm x"]],
    ["trap 'rm x' EXIT", ["trap rm x EXIT", "rm x"]],
    ["watch -n 1 rm x", ["watch -n 1 rm x", "rm x"]],
    ["coproc rm x", ["coproc rm x", "rm x"]],
    ["busybox rm x", ["busybox rm x", "rm x"]],
    ["busybox sh -c 'rm x'", ["busybox sh -c rm x", "sh -c rm x", "rm x"]],
    ["toybox rm x", ["toybox rm x", "rm x"]],
    ["eatmydata nocache catchsegv rm x", ["eatmydata nocache catchsegv rm x", "nocache catchsegv rm x", "catchsegv rm x", "rm x"]],
    ["numactl -N 0 rm x", ["numactl -N 0 rm x", "rm x"]],
    ["runuser -u bob rm x", ["runuser -u bob rm x", "rm x"]],
    ["setpriv --reuid 1000 rm x", ["setpriv --reuid 1000 rm x", "rm x"]],
    ["nsenter -t 1 -m rm x", ["nsenter -t 1 -m rm x", "rm x"]],
    ["prlimit --nofile=10 -p 1 rm x", ["prlimit --nofile=10 -p 1 rm x", "rm x"]],
    ["pkexec --user root rm x", ["pkexec --user root rm x", "rm x"]],
    ["systemd-run --user -p Nice=5 rm x", ["systemd-run --user -p Nice=5 rm x", "rm x"]],
    ["xvfb-run -s '-screen 0 1x1x8' rm x", ["xvfb-run -s -screen 0 1x1x8 rm x", "rm x"]],
    [
      "sshpass -p pw torsocks proxychains4 -f c rm x",
      ["sshpass -p pw torsocks proxychains4 -f c rm x", "torsocks proxychains4 -f c rm x", "proxychains4 -f c rm x", "rm x"],
    ],
    ["firejail --private rm x", ["firejail --private rm x", "rm x"]],
  ])("%j", (text, expected) => {
    const line = parseCommandLine(text)
    expect(argvs(line)).toEqual(expected)
    expect(line.unknown).toEqual([])
  })

  it("marks transparent wrappers and names the wrapper of each wrapped command", () => {
    const line = parseCommandLine("timeout 5 sudo rm x")
    expect(line.commands.map((c) => [c.transparentWrapper ?? false, c.wrappedBy])).toEqual([
      [true, undefined],
      [false, "timeout"],
      [false, "sudo"],
    ])
  })
})

describe("parseCommandLine: redirections", () => {
  it.each<[string, string[]]>([
    ["ls > f", [">:write:f"]],
    ["ls >> f", [">>:write:f"]],
    ["ls >| f", [">|:write:f"]],
    ["ls &> f", ["&>:write:f"]],
    ["ls &>> f", ["&>>:write:f"]],
    ["ls >& f", [">&:write:f"]],
    ["ls 2> f 3>> g", ["2>:write:f", "3>>:write:g"]],
    ["ls <> f", ["<>:readWrite:f"]],
    ["ls 2>&1 >&2 3<&0", ["2>&:duplicate:1", ">&:duplicate:2", "3<&:duplicate:0"]],
    ["ls 3>&- <&-", ["3>&-:close:", "<&-:close:"]],
    ["cat < in", ["<:read:in"]],
    ["ls > '.git/config'", [">:write:.git/config"]],
    ["ls > $(echo f)", [">:write:‹$(echo f)›"]],
    ["{ ls; } > f", [">:write:f"]],
    ["while true; do ls; done >> f", [">>:write:f"]],
    ["exec 3> f", ["3>:write:f"]],
  ])("%j", (text, expected) => {
    const line = parseCommandLine(text)
    expect(
      line.redirects.map(
        (r) => `${r.fd ?? ""}${r.operator}:${r.kind}:${r.target ? (r.target.static ? r.target.text : `‹${r.target.text}›`) : ""}`,
      ),
    ).toEqual(expected)
  })

  it("lists the command inside a redirect target", () => {
    expect(argvs(parseCommandLine("ls > $(touch x)"))).toEqual(["ls", "touch x"])
  })
})

describe("parseCommandLine: what it does not understand", () => {
  it.each<[string, RegExp]>([
    ["ls () { rm v; }; ls", /defines a function/],
    ["function f { rm v; }", /defines a function/],
    ["$X a", /decided at run time/],
    ["$(echo rm) x", /decided at run time/],
    ["`echo rm` x", /decided at run time/],
    ['"$X" a', /decided at run time/],
    ["sudo $X a", /decided at run time/],
    ['eval "$CMD"', /eval runs a text decided at run time/],
    ['bash -c "$CMD"', /decided at run time/],
    ["zsh -c 'ls'", /zsh script/],
    ["echo =(touch x)", /parser does not understand/],
    ["ls *(e:'touch x':)", /parser does not understand/],
    ['echo =(touch x) *(e:"touch x":) a#b # c', /# inside a word/],
    ["ls ${!ref}", /indirect expansion/],
    ['ls "${PS1@P}"', /prompt expansion/],
    ["x='a[$(touch p)]'; echo $((x))", /arithmetic on a variable/],
    ["read x < f; echo $(( x + 1 ))", /arithmetic on a variable/],
    ["for x in $(cat f); do [[ $x -eq 1 ]]; done", /arithmetic on a variable/],
    ["ls (", /syntax|missing/],
    ["ls 'unterminated", /syntax|missing/],
    ["if true; then ls", /syntax|missing/],
    ["ls <> f", /parser does not understand/],
    ["f() (rm x)", /defines a function/],
    ["'ls' \"-la\" $'\\x41\\n'", /ANSI-C string/],
  ])("%j", (text, reason) => {
    const line = parseCommandLine(text)
    expect(line.unknown.map((u) => u.reason).join(" | ")).toMatch(reason)
  })

  it("reads # as the shell does: a comment only where a word starts", () => {
    expect(argvs(parseCommandLine("echo a#b; touch z"))).toEqual(["echo a#b", "touch z"])
    expect(argvs(parseCommandLine("echo 'a'#b $x#y; touch z"))).toEqual(["echo a#b ‹$x#y›", "touch z"])
    expect(argvs(parseCommandLine("echo a #b; touch z"))).toEqual(["echo a"])
    expect(argvs(parseCommandLine("ls;#x\nrm y"))).toEqual(["ls", "rm y"])
  })

  it("gives up on nesting deeper than it checks", () => {
    // 18 levels, one past bash-walker.ts MAX_DEPTH (16) with a margin: each level doubles the quoting, and at 20
    // levels (2 MB) the parse alone took over the parser thread's 3 s bound on a loaded CI machine.
    let text = "rm x"
    for (let i = 0; i < 18; i++) text = `eval ${JSON.stringify(text).replaceAll("$", "\\$")}`
    expect(parseCommandLine(text).unknown.map((u) => u.reason)).toContain("nested too deeply to check")
  })

  it("reads very long lines and deep substitution nesting", () => {
    const long = Array.from({ length: 2000 }, (_, i) => `echo ${i}`).join(" && ")
    expect(parseCommandLine(long).commands).toHaveLength(2000)
    let nested = "touch x"
    for (let i = 0; i < 50; i++) nested = `echo $(${nested})`
    const line = parseCommandLine(nested)
    expect(argvs(line)[0]).toBe("touch x")
    expect(line.unknown).toEqual([])
  })
})
