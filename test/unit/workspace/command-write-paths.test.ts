import { symlinkSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { commandWritePaths } from "../../../server/src/workspace/command-paths"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

let ws: TempWorkspace
beforeAll(async () => {
  ws = await tempWorkspace({ ".git/config": "[core]\n", "src/a.ts": "" })
  symlinkSync(ws.path(".git"), ws.path("dotgit"))
  symlinkSync(ws.path(".git/config"), ws.path("innocent.txt"))
})
afterAll(() => ws.cleanup())

describe("commandWritePaths", () => {
  it("gives the real path of each file a redirection writes, following symlinks as far as the path exists", async () => {
    const paths = await commandWritePaths(
      "echo x > innocent.txt; ls >> dotgit/hooks/pre-commit 2>/dev/null; cat < src/a.ts > new/dir/out.txt",
      ws.root,
    )
    expect(paths).toEqual([ws.path(".git/config"), ws.path(".git/hooks/pre-commit"), ws.path("new/dir/out.txt")])
  })

  it("resolves against the working directory and leaves /dev targets and fd duplications out", async () => {
    expect(await commandWritePaths("echo x > a.txt 2>&1 >/dev/null", ws.path("src"))).toEqual([ws.path("src/a.txt")])
  })
})
