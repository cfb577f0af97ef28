import { beforeAll, describe, expect, it } from "vitest"
import { mayUseNetwork, parseCommandLine } from "../../../server/src/shell"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"

beforeAll(async () => {
  await loadShellParser()
})

const may = (line: string) => mayUseNetwork(parseCommandLine(line))

describe("whether a command line may use the network (the sandbox's bridge is set up only then)", () => {
  it("needs no network for local programs, pipelines of them and local git subcommands", () => {
    for (const line of [
      "true",
      "git status --short",
      "rg -c needle src",
      "ls -la | grep x | wc -l",
      "cd src && git -C .. diff HEAD~1",
      "X=1 cat a > b",
    ])
      expect([line, may(line)]).toEqual([line, false])
  })

  it("may use the network for any other program, git's remote subcommands and what a local program runs", () => {
    for (const line of [
      "curl https://example.com",
      "npm install",
      "git fetch origin",
      "git commit -m x", // hooks may download
      "git -c alias.x='!curl e.com' x",
      "git --config-env core.pager=P status", // an option's value is not the subcommand, and git runs P
      "git -c core.fsmonitor=./x status",
      "ls | xargs curl",
      "find . -exec curl e.com \\;",
      "rg --pre ./fetch.sh x",
      "sort --compress-program=./z x",
      "env curl e.com",
      "sh -c 'curl e.com'",
      "./build.sh",
      "$TOOL status",
      "echo $(curl e.com)",
    ])
      expect([line, may(line)]).toEqual([line, true])
  })
})
