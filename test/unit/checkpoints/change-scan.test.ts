import { afterEach, describe, expect, it } from "vitest"
import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { CheckpointService } from "../../../server/src/checkpoints/service"
import { parseStatus, sortByKind } from "../../../server/src/checkpoints/scan"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

/** The shadow repository's files at a checkpoint. */
function filesAt(gitDir: string, id: string): string[] {
  return execFileSync("git", [`--git-dir=${gitDir}`, "ls-tree", "-r", "--name-only", id], { encoding: "utf8" })
    .trim()
    .split("\n")
    .sort()
}

function shadowConfig(gitDir: string, key: string): string {
  return execFileSync("git", [`--git-dir=${gitDir}`, "config", "--get", key], { encoding: "utf8" }).trim()
}

describe("checkpoint change scan (git status with the untracked cache)", () => {
  let ws: TempWorkspace
  let state: TempWorkspace
  const service = () => new CheckpointService({ workspace: ws.root, stateDir: state.root, maxFileBytes: () => 1000 })
  afterEach(async () => {
    await ws.cleanup()
    await state.cleanup()
  })

  it("catches a change of the same size made in the same second as the checkpoint before (git's racy-timestamp check)", async () => {
    ws = await tempWorkspace({ "a.txt": "alpha\n", "src/b.ts": "export const b = 1\n" })
    state = await tempWorkspace()
    const checkpoints = service()
    const one = await checkpoints.create({ taskId: "t1", turn: 1, label: "one" })
    // Same length, written right after the index was: size and mtime second may both match what the index
    // holds, and only git's racy check (an mtime not older than the index file) makes it look again.
    // Repeated three times. (With the old mtime put back as well, only a ctime in nanoseconds could tell, and
    // Debian's git compares seconds: git itself misses that case, and so do checkpoints; see the README.)
    for (let round = 0; round < 3; round++) {
      writeFileSync(ws.path("a.txt"), `ALPH${round}\n`)
      const next = await checkpoints.create({ taskId: "t1", turn: 2 + round, label: `round ${round}` })
      expect(next.files).toEqual(["a.txt"])
    }
    await checkpoints.restore(one.id)
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("alpha\n")
  })

  it("finds new files in known and new folders, deletions and type changes once the untracked cache is filled", async () => {
    ws = await tempWorkspace({ "a.txt": "alpha\n", "src/b.ts": "b\n", "src/c.ts": "c\n", ".gitignore": "*.log\n" })
    state = await tempWorkspace()
    const checkpoints = service()
    await checkpoints.create({ taskId: "t1", turn: 1, label: "one" })
    await checkpoints.create({ taskId: "t1", turn: 2, label: "cache filled" })
    // The index carries git's untracked cache ("UNTR" extension) between checkpoints.
    expect(shadowConfig(checkpoints.gitDir, "core.untrackedCache")).toBe("true")
    const index = readFileSync(join(checkpoints.gitDir, "index"))
    expect(index.includes("UNTR")).toBe(true)

    writeFileSync(ws.path("src/new.ts"), "new\n")
    mkdirSync(ws.path("deep/er"), { recursive: true })
    writeFileSync(ws.path("deep/er/file.ts"), "deep\n")
    writeFileSync(ws.path("src/skip.log"), "ignored\n")
    rmSync(ws.path("src/c.ts"))
    rmSync(ws.path("a.txt"))
    symlinkSync("src/b.ts", ws.path("a.txt"))
    const three = await checkpoints.create({ taskId: "t1", turn: 3, label: "three" })
    expect(three.files).toEqual(["a.txt", "deep/er/file.ts", "src/c.ts", "src/new.ts"])
    expect(filesAt(checkpoints.gitDir, three.id)).toEqual([".gitignore", "a.txt", "deep/er/file.ts", "src/b.ts", "src/new.ts"])

    // A file added to a folder the cache has just recorded, in the same second.
    writeFileSync(ws.path("deep/er/second.ts"), "second\n")
    const four = await checkpoints.create({ taskId: "t1", turn: 4, label: "four" })
    expect(four.files).toEqual(["deep/er/second.ts"])
  })

  it("snapshots an untracked nested repository's files as plain files within the size limit", async () => {
    ws = await tempWorkspace({ "a.txt": "alpha\n", "vendor/lib/small.ts": "small\n", "vendor/lib/big.bin": "x".repeat(2000) })
    state = await tempWorkspace()
    execFileSync("git", ["init", "-q"], { cwd: ws.path("vendor/lib") })
    symlinkSync("small.ts", ws.path("vendor/lib/link"))
    const checkpoints = service()
    const one = await checkpoints.create({ taskId: "t1", turn: 1, label: "one" })
    expect(filesAt(checkpoints.gitDir, one.id)).toEqual(["a.txt", "vendor/lib/link", "vendor/lib/small.ts"])
    // A folder, never a gitlink (mode 160000).
    const entry = execFileSync("git", [`--git-dir=${checkpoints.gitDir}`, "ls-tree", one.id, "vendor/lib"], { encoding: "utf8" })
    expect(entry).toMatch(/^040000 tree [0-9a-f]{40}\tvendor\/lib\n$/)
  })

  it("gives a shadow repository made by an older version today's settings and keeps its checkpoints", async () => {
    ws = await tempWorkspace({ "a.txt": "alpha\n" })
    state = await tempWorkspace()
    const old = service()
    const one = await old.create({ taskId: "t1", turn: 1, label: "one" })
    // What the previous version left: no untracked cache settings, an empty ready marker.
    for (const key of ["core.untrackedCache", "status.showUntrackedFiles", "splitIndex.sharedIndexExpire"])
      execFileSync("git", [`--git-dir=${old.gitDir}`, "config", "--unset", key])
    writeFileSync(join(old.gitDir, "agent-lsp-ready"), "")

    writeFileSync(ws.path("a.txt"), "alpha two\n")
    writeFileSync(ws.path("new.txt"), "new\n")
    const upgraded = service()
    const two = await upgraded.create({ taskId: "t1", turn: 2, label: "two" })
    expect(two.files).toEqual(["a.txt", "new.txt"])
    expect(shadowConfig(upgraded.gitDir, "core.untrackedCache")).toBe("true")
    expect(shadowConfig(upgraded.gitDir, "status.showUntrackedFiles")).toBe("all")
    expect(readFileSync(join(upgraded.gitDir, "agent-lsp-ready"), "utf8")).not.toBe("")
    expect((await upgraded.list("t1")).map((c) => c.id)).toEqual([one.id, two.id])
    await upgraded.restore(one.id)
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("alpha\n")
  })

  it("reads git status: work-tree changes and untracked paths, not what only the index has staged", () => {
    const out = Buffer.from(
      ["M  staged-only.ts", " M edited.ts", "MM both.ts", " D gone.ts", " T link", "?? new file.ts", "?? nested/", "A  added.ts", ""].join(
        "\0",
      ),
    )
    expect(parseStatus(out)).toEqual({ changed: ["edited.ts", "both.ts", "gone.ts", "link"], untracked: ["new file.ts", "nested/"] })
  })

  it("keeps regular files within the size limit and symlinks, and drops what is gone, too big or not a file", async () => {
    ws = await tempWorkspace({ "small.txt": "s\n", "big.txt": "x".repeat(2000), "dir/inner.txt": "i\n" })
    state = await tempWorkspace()
    symlinkSync("missing-target", ws.path("dangling"))
    execFileSync("mkfifo", [ws.path("pipe")])
    const paths = ["big.txt", "dangling", "dir", "gone.txt", "pipe", "small.txt", "small.txt/below"]
    expect(await sortByKind(ws.root, paths, 1000)).toEqual({
      keep: ["dangling", "small.txt"],
      drop: ["big.txt", "dir", "gone.txt", "pipe", "small.txt/below"],
    })
  })
})
