import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decideCommand } from "../../../server/src/approval"
import { parseCommandLine } from "../../../server/src/shell"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"

/**
 * Code that bash runs from what the line writes as data: a variable name given to a builtin, a quoted text
 * in arithmetic, an array index, a prompt variable (server/src/shell/evaluated-names.ts). Each line runs
 * under the real bash first (the control: the hidden `touch` really runs), then the reading must call it
 * not understood, so even with every program allowed and `touch` denied the line asks.
 */

let dir: string
let mark: string
beforeAll(async () => {
  await loadShellParser()
  dir = mkdtempSync(join(tmpdir(), "evaluated-names-"))
  mark = join(dir, "ran")
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const HIDDEN = "$(touch MARK)"
const ATTACKS: [string, string][] = [
  ["printf -v with a subscript", `printf -v 'a[${HIDDEN}]' 1`],
  ["printf -v joined to its name", `printf -v'a[${HIDDEN}]' 1`],
  ["printf -v through a variable", `x='a[${HIDDEN}]'; printf -v "$x" 1`],
  ["printf's option decided at run time", `f=-v; printf "$f" 'a[${HIDDEN}]' 1`],
  ["printf -v wrapped in command", `command printf -v 'a[${HIDDEN}]' 1`],
  ["read into a subscript", `read 'a[${HIDDEN}]' <<< 1`],
  ["read into a name decided at run time", `x='a[${HIDDEN}]'; read "$x" <<< 1`],
  ["read wrapped in builtin", `builtin read 'a[${HIDDEN}]' <<< 1`],
  ["declare of a quoted subscript", `declare 'a[${HIDDEN}]=1'`],
  ["declare of a name decided at run time", `x='a[${HIDDEN}]'; declare "$x"=1`],
  ["typeset of a name decided at run time", `x='a[${HIDDEN}]'; typeset "$x"=1`],
  ["declare wrapped in command", `command declare 'a[${HIDDEN}]=1'`],
  ["declare -i evaluating a name", `x='a[${HIDDEN}]'; declare -i y=x`],
  ["an assignment to a declare -i variable", `x='a[${HIDDEN}]'; declare -i y; y=x`],
  ["a declare -n reference", `declare -n r='a[${HIDDEN}]'; r=1`],
  ["a declare -n reference read", `typeset -n r='a[${HIDDEN}]'; echo "$r"`],
  ["wait -p with a subscript", `true & wait -p 'a[${HIDDEN}]' $!`],
  ["a quoted operand of [[ -eq ]]", `[[ 'a[${HIDDEN}]' -eq 1 ]]`],
  ["[[ -v ]] of a subscript", `[[ -v 'a[${HIDDEN}]' ]]`],
  ["test -v of a subscript", `test -v 'a[${HIDDEN}]'`],
  ["[ -v ] of a subscript", `[ -v 'a[${HIDDEN}]' ]`],
  ["a quoted text in (( ))", `(( 'a[${HIDDEN}]' ))`],
  ["a quoted array index", `a=(['${HIDDEN}']=1)`],
  ["an array index holding a bracket", `a=(['a[${HIDDEN}]']=1)`],
  ["a quoted index in an expansion", `echo "\${a['${HIDDEN}']}"`],
  ["an array literal's index naming a variable", `x='a[${HIDDEN}]'; arr+=([x]=1)`],
  ["an array element's value in arithmetic", `mapfile -t arr <<< 'a[${HIDDEN}]'; echo $(( arr[0] ))`],
  ["positional parameters in arithmetic", `set -- 'a[${HIDDEN}]'; [[ $1 -eq 0 ]]`],
  ["a value assigned by ${x:=…}, in arithmetic", `: \${x:='a[${HIDDEN}]'}; echo $((x))`],
  ["PS4 under set -x", `PS4='${HIDDEN}'; set -x; :`],
  ["PS4 exported, under set -o xtrace", `export PS4='${HIDDEN}'; set -o xtrace; :`],
  ["PS4 read from input", `read PS4 <<< '${HIDDEN}'; set -x; :`],
  ["BASH_ENV exported for a later bash", "printf 'touch MARK\\n' > benv.sh; export BASH_ENV=./benv.sh; bash -c true"],
  ["BASH_ENV before a bash", "printf 'touch MARK\\n' > benv.sh; BASH_ENV=./benv.sh bash -c true"],
  ["BASH_ENV through env", "printf 'touch MARK\\n' > benv.sh; env BASH_ENV=./benv.sh bash -c true"],
  ["BASH_ENV read from input", "printf 'touch MARK\\n' > benv.sh; read BASH_ENV <<< ./benv.sh; export BASH_ENV; bash -c true"],
  [
    "NODE_OPTIONS --require",
    `printf 'require("child_process").execSync("touch MARK")\\n' > r.js; export NODE_OPTIONS="--require $PWD/r.js"; node -e 1`,
  ],
  ["compgen -C", "compgen -C 'touch MARK' x"],
  ["mapfile -C", "mapfile -C 'touch MARK' -c 1 m <<< 1"],
  ["hash -p", "hash -p /usr/bin/touch ls; ls MARK"],
  [
    "RIPGREP_CONFIG_PATH naming a --pre",
    "printf '#!/bin/sh\\ntouch MARK\\ncat \"$1\"\\n' > pre.sh; chmod +x pre.sh; echo needle > f.txt; printf -- '--pre=./pre.sh\\n' > rgrc; RIPGREP_CONFIG_PATH=./rgrc rg needle f.txt",
  ],
  ["TAR_OPTIONS with --to-command", "echo x > f.txt; tar -cf a.tar f.txt; TAR_OPTIONS='--to-command=touch\\ MARK' tar -xf a.tar"],
  [
    "npm_config_script_shell naming a program the line wrote",
    `printf '{"name":"t","version":"1.0.0","scripts":{"x":"true"}}\\n' > package.json; printf '#!/bin/sh\\ntouch MARK\\n' > s.sh; chmod +x s.sh; npm_config_script_shell=./s.sh npm run -s x`,
  ],
  [
    "NPM_CONFIG_SCRIPT_SHELL exported",
    `printf '{"name":"t","version":"1.0.0","scripts":{"x":"true"}}\\n' > package.json; printf '#!/bin/sh\\ntouch MARK\\n' > s.sh; chmod +x s.sh; export NPM_CONFIG_SCRIPT_SHELL=./s.sh; npm run -s x`,
  ],
  ["RANDOM given a subscript", `RANDOM='a[${HIDDEN}]'`],
  ["OPTIND exported with a subscript", `export OPTIND='a[${HIDDEN}]'`],
  ["HISTCMD read from input", `read HISTCMD <<< 'a[${HIDDEN}]'`],
  ["SRANDOM set by printf -v", `printf -v SRANDOM %s 'a[${HIDDEN}]'`],
  ["a function imported from env", `env 'BASH_FUNC_ls%%=() { touch MARK; }' bash -c ls`],
  ["PATH naming the workspace before a command", "printf '#!/bin/sh\\ntouch MARK\\n' > ls; chmod +x ls; PATH=.:$PATH ls"],
  ["PATH exported", "printf '#!/bin/sh\\ntouch MARK\\n' > ls; chmod +x ls; export PATH=.:$PATH; ls"],
  [
    "HOME with a git configuration the line wrote",
    "rm -rf r; git init -q r && cd r && mkdir h && printf '[diff]\\n\\texternal = touch MARK\\n' > h/.gitconfig && echo a > a && git add a && echo b > a && HOME=./h git diff",
  ],
  [
    "XDG_CONFIG_HOME with a git configuration the line wrote",
    "rm -rf r; git init -q r && cd r && mkdir -p c/git && printf '[diff]\\n\\texternal = touch MARK\\n' > c/git/config && echo a > a && git add a && echo b > a && export XDG_CONFIG_HOME=./c; git diff",
  ],
]

describe("code bash runs from a name or a quoted text is never read as harmless", () => {
  it.each(ATTACKS)("%s", (_, template) => {
    const line = template.replaceAll("MARK", mark)
    rmSync(mark, { force: true })
    try {
      execFileSync("/bin/bash", ["--noprofile", "--norc", "-c", line], { cwd: dir, stdio: "ignore", timeout: 5000 })
    } catch {
      // Some of these lines fail after the hidden command ran (an invalid name): only the mark counts.
    }
    expect(existsSync(mark), "control: bash runs the hidden command").toBe(true)
    const reading = parseCommandLine(line)
    expect(reading.unknown.length, JSON.stringify(reading.commands.map((c) => c.source))).toBeGreaterThan(0)
    expect(decideCommand(line, ["*"], ["touch"]).decision).toBe("ask")
  })
})

describe("ordinary uses of the same builtins stay understood", () => {
  it.each([
    "export NODE_ENV=production",
    "declare -a arr=(1 2 3)",
    "declare -A m=([key]=1)",
    "local -a y",
    "unset FOO",
    "read -r line < f",
    "IFS= read -r -p 'name? ' name",
    'while read -r line; do echo "$line"; done < f',
    "printf '%s\\n' \"$x\"",
    "printf -v out '%s' \"$x\"",
    "mapfile -t lines < f",
    'getopts "ab:" opt',
    "sleep 1 & wait $!",
    '[[ -n "$x" && $x == foo* ]]',
    "[[ -v HOME ]]",
    "test -v HOME",
    'arr=(a b c); echo "${arr[1]}"',
    "hash -r",
    "echo $((1 + 2))",
  ])("%s", (line) => {
    expect(parseCommandLine(line).unknown).toEqual([])
  })
})
