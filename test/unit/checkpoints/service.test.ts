import { afterEach, describe, expect, it } from "vitest"
import { execFileSync } from "node:child_process"
import { lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync, chmodSync, mkdirSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { CheckpointService } from "../../../server/src/checkpoints/service"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

/** Every file under `root` (including .git folders): path → bytes, mode and symlink target. */
function tree(root: string, dir = ""): Map<string, string> {
  const out = new Map<string, string>()
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = join(dir, entry.name)
    const st = lstatSync(join(root, rel))
    if (entry.isDirectory()) for (const [k, v] of tree(root, rel)) out.set(k, v)
    else if (entry.isSymbolicLink()) out.set(rel, `link:${readlinkSync(join(root, rel))}`)
    else out.set(rel, `${(st.mode & 0o777).toString(8)}:${readFileSync(join(root, rel)).toString("base64")}`)
  }
  return out
}

function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "-c", "core.safecrlf=false", ...args],
    { cwd, encoding: "utf8" },
  )
}

describe("CheckpointService", () => {
  let ws: TempWorkspace
  let state: TempWorkspace
  const service = (maxFileBytes = 1024 * 1024) =>
    new CheckpointService({ workspace: ws.root, stateDir: state.root, maxFileBytes: () => maxFileBytes })
  afterEach(async () => {
    await ws.cleanup()
    await state.cleanup()
  })

  async function setup(): Promise<void> {
    ws = await tempWorkspace({
      "a.txt": "alpha\n",
      "b.bin": Buffer.from([0, 1, 2, 255, 13, 10]),
      "src/crlf.ts": "line1\r\nline2\r\n",
      "run.sh": "#!/bin/sh\necho hi\n",
      ".gitattributes": "* text=auto eol=lf\n",
      ".gitignore": "ignored/\n*.log\n",
      "ignored/cache.txt": "cache\n",
      "debug.log": "log\n",
      "vendor/lib/lib.txt": "library\n",
      "vendor/lib/.gitignore": "tmp.txt\n",
      "vendor/lib/tmp.txt": "scratch\n",
    })
    chmodSync(ws.path("run.sh"), 0o755)
    symlinkSync("a.txt", ws.path("link-to-a"))
    gitIn(ws.root, "init", "-q")
    gitIn(ws.root, "add", "-A")
    gitIn(ws.root, "commit", "-qm", "user commit")
    // A vendored repository inside the workspace: its files must be snapshotted as plain files.
    gitIn(ws.path("vendor/lib"), "init", "-q")
    gitIn(ws.path("vendor/lib"), "add", "-A")
    gitIn(ws.path("vendor/lib"), "commit", "-qm", "vendored")
    state = await tempWorkspace()
  }

  it("restores edits, a command's new file, deletions and a nested repo's files byte for byte, never touching .git", async () => {
    await setup()
    const checkpoints = service()
    const before = tree(ws.root)
    const checkpoint = await checkpoints.create({ taskId: "t1", turn: 1, callId: "call_1", label: "before edits" })
    expect(checkpoint.id).toMatch(/^[0-9a-f]{40}$/)

    writeFileSync(ws.path("a.txt"), "alpha edited\n")
    writeFileSync(ws.path("src/crlf.ts"), "changed\r\n")
    execFileSync("sh", ["-c", "mkdir -p out && echo created > out/third.txt && rm b.bin && chmod -x run.sh"], { cwd: ws.root })
    writeFileSync(ws.path("vendor/lib/lib.txt"), "library patched\n")
    rmSync(ws.path("link-to-a"))
    writeFileSync(ws.path("link-to-a"), "now a file\n")
    writeFileSync(ws.path("debug.log"), "log grew\n")

    const restored = await checkpoints.restore(checkpoint.id)
    const after = tree(ws.root)
    after.set("debug.log", before.get("debug.log")!) // ignored: left as it is, compared below
    expect(after).toEqual(before)
    expect(readFileSync(ws.path("debug.log"), "utf8")).toBe("log grew\n")
    expect(restored.map((r) => `${r.deleted ? "-" : "+"}${r.relative}`).sort()).toEqual(
      ["+a.txt", "+b.bin", "+link-to-a", "+run.sh", "+src/crlf.ts", "+vendor/lib/lib.txt", "-out/third.txt"].sort(),
    )
    expect(restored.find((r) => r.relative === "a.txt")).toMatchObject({
      path: ws.path("a.txt"),
      deleted: false,
      text: "alpha\n",
      binary: false,
    })
    expect(restored.find((r) => r.relative === "b.bin")).toMatchObject({ binary: true })
    expect(gitIn(ws.root, "status", "--porcelain")).toBe("")
    expect(gitIn(ws.path("vendor/lib"), "status", "--porcelain")).toBe("")
  })

  it("leaves out .gitignored files, .git folders and files over the size limit", async () => {
    await setup()
    writeFileSync(ws.path("big.dat"), Buffer.alloc(4096, 7))
    const checkpoints = service(1000)
    const first = await checkpoints.create({ taskId: "t1", turn: 1, label: "one" })
    const files = execFileSync("git", [`--git-dir=${checkpoints.gitDir}`, "ls-tree", "-r", "--name-only", first.id], { encoding: "utf8" })
      .trim()
      .split("\n")
    expect(files.sort()).toEqual([
      ".gitattributes",
      ".gitignore",
      "a.txt",
      "b.bin",
      "link-to-a",
      "run.sh",
      "src/crlf.ts",
      "vendor/lib/.gitignore",
      "vendor/lib/lib.txt",
    ])
    writeFileSync(ws.path("big.dat"), Buffer.alloc(5000, 9))
    await checkpoints.restore(first.id)
    expect(readFileSync(ws.path("big.dat"))).toEqual(Buffer.alloc(5000, 9))

    // Later checkpoints (git's own walk, now that the nested repo's files are tracked) keep the same rules.
    writeFileSync(ws.path("vendor/lib/tmp.txt"), "scratch 2\n")
    writeFileSync(ws.path("vendor/lib/other.txt"), "other\n")
    writeFileSync(ws.path("src/huge.ts"), "x".repeat(2000))
    writeFileSync(ws.path(".gitignore"), "ignored/\n*.log\na.txt\n")
    const second = await checkpoints.create({ taskId: "t1", turn: 2, label: "two" })
    const later = execFileSync("git", [`--git-dir=${checkpoints.gitDir}`, "ls-tree", "-r", "--name-only", second.id], { encoding: "utf8" })
      .trim()
      .split("\n")
    expect(later.sort()).toEqual([
      ".gitattributes",
      ".gitignore",
      "b.bin",
      "link-to-a",
      "run.sh",
      "src/crlf.ts",
      "vendor/lib/.gitignore",
      "vendor/lib/lib.txt",
      "vendor/lib/other.txt",
    ])
  })

  it("does not snapshot a state directory that lies inside the workspace", async () => {
    await setup()
    const checkpoints = new CheckpointService({ workspace: ws.root, stateDir: ws.path(".agent-state"), maxFileBytes: () => 1 << 20 })
    await checkpoints.create({ taskId: "t1", turn: 1, label: "one" })
    writeFileSync(ws.path("a.txt"), "two\n")
    const second = await checkpoints.create({ taskId: "t1", turn: 2, label: "two" })
    expect(second.files).toEqual(["a.txt"])
  })

  it("lists a task's checkpoints with the files changed before each, and diffs them as unified diffs", async () => {
    await setup()
    const checkpoints = service()
    const one = await checkpoints.create({ taskId: "t1", turn: 1, label: "one" })
    writeFileSync(ws.path("a.txt"), "alpha two\n")
    await checkpoints.create({ taskId: "other", turn: 1, label: "other task" })
    writeFileSync(ws.path("vendor/lib/lib.txt"), "library three\n")
    const three = await checkpoints.create({ taskId: "t1", turn: 2, callId: "c9", label: "three" })
    const list = await checkpoints.list("t1")
    expect(list.map((c) => [c.label, c.files])).toEqual([
      ["one", []],
      ["three", ["a.txt", "vendor/lib/lib.txt"]],
    ])
    expect(list[1]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/)

    const between = await checkpoints.diff(one.id, three.id)
    expect(between).toContain("--- a/a.txt\n+++ b/a.txt")
    expect(between).toContain("-alpha\n+alpha two")
    expect(between).toContain("+library three")
    writeFileSync(ws.path("new.txt"), "fresh\n")
    expect(await checkpoints.diff(three.id)).toContain("+++ b/new.txt")
    await expect(checkpoints.diff("0".repeat(40))).rejects.toThrow(/no checkpoint/)
  })

  it("stages a large first checkpoint into one pack, and a few later changes as loose objects, with text diffs", async () => {
    ws = await tempWorkspace()
    state = await tempWorkspace()
    for (let i = 0; i < 450; i++) {
      mkdirSync(ws.path(`pkg${i % 9}`), { recursive: true })
      writeFileSync(ws.path(`pkg${i % 9}/f${i}.ts`), `export const v${i} = ${i}\n`)
    }
    const checkpoints = service()
    const one = await checkpoints.create({ taskId: "t1", turn: 1, label: "one" })
    const objects = join(checkpoints.gitDir, "objects")
    const loose = () =>
      readdirSync(objects)
        .filter((d) => /^[0-9a-f]{2}$/.test(d))
        .flatMap((d) => readdirSync(join(objects, d)))
    const packs = () => readdirSync(join(objects, "pack")).filter((f) => f.endsWith(".pack"))
    expect(packs()).toHaveLength(1)
    // Only trees and the commit are loose: 450 blobs would be 450 more files.
    expect(loose().length).toBeLessThan(20)
    writeFileSync(ws.path("pkg3/f3.ts"), "export const v3 = 'changed'\n")
    const before = loose().length
    const two = await checkpoints.create({ taskId: "t1", turn: 2, label: "two" })
    expect(two.files).toEqual(["pkg3/f3.ts"])
    expect(packs()).toHaveLength(1)
    expect(loose().length).toBeGreaterThan(before)
    // Blobs in the pack read back as text, not "Binary files differ".
    expect(await checkpoints.diff(one.id, two.id)).toContain("-export const v3 = 3\n+export const v3 = 'changed'")
    await checkpoints.restore(one.id)
    expect(readFileSync(ws.path("pkg3/f3.ts"), "utf8")).toBe("export const v3 = 3\n")
  })

  it("drops tracked files that a changed .gitignore now excludes, after a restart and within one process", async () => {
    await setup()
    await service().create({ taskId: "t1", turn: 1, label: "one" })
    // A restarted server: the .gitignore change happened before this service existed.
    writeFileSync(ws.path(".gitignore"), "ignored/\n*.log\nrun.sh\n")
    const checkpoints = service()
    const two = await checkpoints.create({ taskId: "t1", turn: 2, label: "two" })
    const files = () => gitIn(ws.root, `--git-dir=${checkpoints.gitDir}`, "ls-tree", "-r", "--name-only", "refs/heads/checkpoints")
    expect(two.files).toEqual([".gitignore", "run.sh"])
    expect(files()).not.toContain("run.sh")
    // Within one process the check runs again whenever a .gitignore is among the changes; a file that
    // changed in the same turn is dropped too.
    writeFileSync(ws.path("vendor/lib/.gitignore"), "tmp.txt\nlib.txt\n")
    writeFileSync(ws.path("vendor/lib/lib.txt"), "library, changed as it became ignored\n")
    await checkpoints.create({ taskId: "t1", turn: 3, label: "three" })
    expect(files()).not.toContain("vendor/lib/lib.txt")
    expect(files()).toContain("a.txt")
  })

  it("keeps checkpoints across service instances (a restarted server)", async () => {
    await setup()
    const one = await service().create({ taskId: "t1", turn: 1, label: "one" })
    writeFileSync(ws.path("a.txt"), "changed\n")
    const again = service()
    expect((await again.list("t1")).map((c) => c.id)).toEqual([one.id])
    await again.restore(one.id)
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("alpha\n")
  })

  it("ignores the user's global git config", async () => {
    await setup()
    const home = join(state.root, "home")
    mkdirSync(home, { recursive: true })
    writeFileSync(join(home, ".gitconfig"), "[diff]\n\tnoprefix = true\n[commit]\n\tgpgsign = true\n")
    const previous = process.env.HOME
    process.env.HOME = home
    try {
      const checkpoints = service()
      const one = await checkpoints.create({ taskId: "t1", turn: 1, label: "one" })
      writeFileSync(ws.path("a.txt"), "changed\n")
      expect(await checkpoints.diff(one.id)).toContain("--- a/a.txt\n+++ b/a.txt")
    } finally {
      process.env.HOME = previous
    }
  })
})
