import { describe, expect, it } from "vitest"
import { splitCommand } from "../../../server/src/approval"

const cases: [string, string[], string[]?][] = [
  ["npm test", ["npm test"]],
  ["npm   test   --  -t  foo", ["npm test -- -t foo"]],
  ["npm install && npm test", ["npm install", "npm test"]],
  ["make || echo failed", ["make", "echo failed"]],
  ["cd src; ls -la", ["cd src", "ls -la"]],
  ["cat a.txt | grep foo | wc -l", ["cat a.txt", "grep foo", "wc -l"]],
  ["sleep 10 & echo started", ["sleep 10", "echo started"]],
  ["npm test\nrm -rf dist", ["npm test", "rm -rf dist"]],
  ["echo $(rm -rf /)", ["rm -rf /", "echo $(rm -rf /)"]],
  ["echo `whoami`", ["whoami", "echo `whoami`"]],
  ['echo "today is $(date)"', ["date", 'echo "today is $(date)"']],
  ["echo 'not $(run) here && not split'", ["echo 'not $(run) here && not split'"]],
  ['echo "a && b; c | d"', ['echo "a && b; c | d"']],
  ["diff <(ls a) <(ls b)", ["ls a", "ls b", "diff <(…) <(…)"]],
  ["tee >(gzip > out.gz) < in", ["gzip > out.gz", "tee >(…) < in"]],
  ["npm test 2>&1 | tail -5", ["npm test 2>&1", "tail -5"]],
  ["npm test &> log.txt", ["npm test &> log.txt"]],
  ["cmd >&2", ["cmd >&2"]],
  ["make |& less", ["make", "less"]],
  ["echo a >| out.txt && ls", ["echo a >| out.txt", "ls"]],
  ["(cd sub && rm -rf build)", ["cd sub", "rm -rf build"]],
  ["{ echo a; rm b; }", ["echo a", "rm b"]],
  ["if git diff --quiet; then rm -rf out; fi", ["git diff --quiet", "rm -rf out"]],
  ["while true; do curl x; done", ["true", "curl x"]],
  ["! grep -q x file", ["grep -q x file"]],
  ["echo $(echo $(rm nested))", ["rm nested", "echo $(rm nested)", "echo $(echo $(rm nested))"]],
  ["echo $((1 + 2))", ["echo $((1 + 2))"]],
  ["echo $(( $(wc -l < f) + 1 ))", ["wc -l < f", "echo $(( $(wc -l < f) + 1 ))"]],
  ["echo ${HOME}/x", ["echo ${HOME}/x"]],
  ["echo ${X:-$(rm y)}", ["rm y", "echo ${X:-$(rm y)}"]],
  ["ls # ; rm -rf /", ["ls"]],
  ["echo a#b; ls", ["echo a#b", "ls"]],
  ["npm run build \\\n  --prod", ["npm run build --prod"]],
  ["echo a\\;b", ["echo a\\;b"]],
  ["cat <<EOF\nrm -rf /\nEOF\nls", ["cat <<heredoc", "ls"]],
  ["cat <<'EOF' > f\n$(not run)\nEOF", ["cat <<heredoc > f"]],
  ["cat <<EOF\n$(whoami)\nEOF", ["cat <<heredoc", "whoami"]],
  ["cat <<< 'here string'", ["cat <<< 'here string'"]],
  ["echo $'a\\'b' && ls", ["echo $'a\\'b'", "ls"]],
  ["bash -c 'npm test && rm -rf /'", ["bash -c 'npm test && rm -rf /'", "npm test", "rm -rf /"]],
  ['sh -ec "echo \\"hi\\"; curl x | sh"', ['sh -ec "echo \\"hi\\"; curl x | sh"', 'echo "hi"', "curl x", "sh"]],
  ["/bin/zsh -c ls", ["/bin/zsh -c ls", "ls"]],
  ["ssh -c aes128-ctr host ls", ["ssh -c aes128-ctr host ls"]],
  ["", []],
  ["   ;;  ", []],
]

describe("splitCommand", () => {
  it.each(cases)("splits %j", (command, commands) => {
    expect(splitCommand(command).commands).toEqual(commands)
  })

  it("flags ${var@P}, ${!var} and eval as dangerous", () => {
    expect(splitCommand('echo "${x@P}"').dangerous).toEqual(["${x@P}"])
    expect(splitCommand("echo ${!name}").dangerous).toEqual(["${!name}"])
    expect(splitCommand('ls && eval "$CMD"').dangerous).toEqual(["eval"])
    expect(splitCommand("echo ${HOME} ${#x} ${x:-y}").dangerous).toEqual([])
  })
})
