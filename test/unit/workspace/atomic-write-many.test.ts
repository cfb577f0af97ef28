import { execFileSync, spawnSync } from "node:child_process"
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { writeFilesAtomic } from "../../../server/src/workspace/atomic-write"
import { SYNCFS_FROM_FILES } from "../../../server/src/workspace/flush-to-disk"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

const CHILD = join(import.meta.dirname, "../../fixtures/atomic-write-crash.mts")

let ws: TempWorkspace
afterEach(() => ws?.cleanup())

const newText = (path: string) => `new text of ${path}\n`.repeat(1000)

function files(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`src/f${i}.ts`, `old text ${i}\n`]))
}

describe("writeFilesAtomic", () => {
  it("leaves every file with its old text when the process dies between the temps' writes and their renames", async () => {
    ws = await tempWorkspace(files(5))
    const paths = Object.keys(files(5)).map((p) => ws.path(p))
    const child = spawnSync(process.execPath, ["--import", "tsx", CHILD, "crash", ...paths], { encoding: "utf8" })
    expect(child.signal).toBe("SIGKILL")
    for (const [i, path] of paths.entries()) expect(readFileSync(path, "utf8")).toBe(`old text ${i}\n`)
    // It died after the new texts were written whole (to the temps), before any target was touched.
    const temps = readdirSync(ws.path("src")).filter((name) => name.endsWith(".tmp"))
    expect(temps).toHaveLength(5)
    for (const temp of temps) {
      const target = ws.path(`src/${temp.slice(1).split(".ts.")[0]}.ts`)
      expect(readFileSync(ws.path(`src/${temp}`), "utf8")).toBe(newText(target))
    }
  })

  function calls(
    paths: string[],
    mode = "order",
  ): { call: string; path?: string; program?: string; args?: string[]; ok?: boolean; env?: object; keyHere?: boolean }[] {
    // An API key in the writer's environment: the sync process it starts must not get it.
    const env = { ...process.env, ANTHROPIC_API_KEY: "sk-ant-api03-fixture" }
    const child = spawnSync(process.execPath, ["--import", "tsx", CHILD, mode, ...paths], { encoding: "utf8", env })
    expect(child.status, child.stderr).toBe(0)
    for (const path of paths) expect(readFileSync(path, "utf8")).toBe(newText(path))
    return child.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
  }

  it("flushes each of a few files' temps to disk before renaming it over its target", () => {
    const dir = execFileSync("mktemp", ["-d"], { encoding: "utf8" }).trim()
    try {
      const seen = calls(Array.from({ length: 3 }, (_, i) => join(dir, `f${i}.ts`)))
      expect(seen.filter((c) => c.call === "rename")).toHaveLength(3)
      expect(seen.filter((c) => c.call === "syncfs")).toEqual([])
      for (const [i, call] of seen.entries())
        if (call.call === "rename") expect(seen.slice(0, i).some((c) => c.call === "fsync" && c.path === call.path)).toBe(true)
    } finally {
      execFileSync("rm", ["-rf", dir])
    }
  })

  it(`flushes the file system of many files (${SYNCFS_FROM_FILES} or more) once, before the first rename, with nothing of the server's environment`, () => {
    const dir = execFileSync("mktemp", ["-d"], { encoding: "utf8" }).trim()
    try {
      const seen = calls(Array.from({ length: SYNCFS_FROM_FILES + 8 }, (_, i) => join(dir, `f${i}.ts`)))
      const firstRename = seen.findIndex((c) => c.call === "rename")
      expect(seen.filter((c) => c.call === "rename")).toHaveLength(SYNCFS_FROM_FILES + 8)
      // One sync -f, finished and successful before any rename, naming one temp of the folder's file system.
      expect(seen.slice(0, firstRename)).toEqual([
        {
          call: "syncfs",
          program: expect.stringMatching(/^\/(usr\/)?bin\/sync$/),
          args: ["-f", "--", expect.stringMatching(/\.tmp$/)],
          ok: true,
          env: {},
          keyHere: true,
        },
      ])
      expect(seen.slice(0, firstRename)[0]!.args![2]!.startsWith(`${dir}/`)).toBe(true)
      expect(seen.filter((c) => c.call === "fsync")).toEqual([])
    } finally {
      execFileSync("rm", ["-rf", dir])
    }
  })

  it("flushes each file on its own before its rename when the file system's flush fails", () => {
    const dir = execFileSync("mktemp", ["-d"], { encoding: "utf8" }).trim()
    try {
      const seen = calls(
        Array.from({ length: SYNCFS_FROM_FILES }, (_, i) => join(dir, `f${i}.ts`)),
        "sync-fails",
      )
      expect(seen[0]).toMatchObject({ call: "syncfs", ok: false })
      expect(seen.filter((c) => c.call === "rename")).toHaveLength(SYNCFS_FROM_FILES)
      for (const [i, call] of seen.entries())
        if (call.call === "rename") expect(seen.slice(0, i).some((c) => c.call === "fsync" && c.path === call.path)).toBe(true)
    } finally {
      execFileSync("rm", ["-rf", dir])
    }
  })

  it("stops waiting for a disk that never confirms a flush, and names every file it could not flush", () => {
    const dir = execFileSync("mktemp", ["-d"], { encoding: "utf8" }).trim()
    try {
      for (const count of [2, SYNCFS_FROM_FILES]) {
        const paths = Array.from({ length: count }, (_, i) => join(dir, `f${i}.ts`))
        const child = spawnSync(process.execPath, ["--import", "tsx", CHILD, "hang", ...paths], { encoding: "utf8", timeout: 20_000 })
        expect(child.status, child.stderr).toBe(0)
        const failed = JSON.parse(child.stdout) as Record<string, string>
        expect(Object.keys(failed).sort()).toEqual([...paths].sort())
        for (const message of Object.values(failed)) expect(message).toMatch(/did not confirm the write within 0.3 s/)
      }
    } finally {
      execFileSync("rm", ["-rf", dir])
    }
  })

  it("writes the other files when one cannot be, and says why for that one", async () => {
    ws = await tempWorkspace({ "a.ts": "a\n", "c.ts": "c\n" })
    mkdirSync(ws.path("b.ts"))
    chmodSync(ws.path("a.ts"), 0o640)
    const results = await writeFilesAtomic(
      ["a.ts", "b.ts", "c.ts", "new/d.ts"].map((p) => ({ path: ws.path(p), text: `${p} again\n` })),
      { workspaceFolders: [ws.root] },
    )
    expect(results[0]).toEqual({ created: false })
    expect(results[1]).toMatchObject({ error: { message: expect.stringMatching(/is a directory/) } })
    expect(results[2]).toEqual({ created: false })
    expect(results[3]).toEqual({ created: true })
    expect(readFileSync(ws.path("a.ts"), "utf8")).toBe("a.ts again\n")
    expect(statSync(ws.path("a.ts")).mode & 0o777).toBe(0o640)
    expect(readFileSync(ws.path("new/d.ts"), "utf8")).toBe("new/d.ts again\n")
    expect(readdirSync(ws.root).filter((name) => name.endsWith(".tmp"))).toEqual([])
  })

  it("writes more files than one round holds, each whole", async () => {
    ws = await tempWorkspace(files(300))
    const paths = Object.keys(files(300)).map((p) => ws.path(p))
    const results = await writeFilesAtomic(
      paths.map((path) => ({ path, text: newText(path) })),
      { workspaceFolders: [ws.root] },
    )
    expect(results.every((r) => "created" in r && !r.created)).toBe(true)
    for (const path of paths) expect(readFileSync(path, "utf8")).toBe(newText(path))
    expect(readdirSync(ws.path("src")).filter((name) => name.endsWith(".tmp"))).toEqual([])
  })

  it("renames no file before beforeRenames is done, then writes them all", async () => {
    ws = await tempWorkspace(files(300))
    const paths = Object.keys(files(300)).map((p) => ws.path(p))
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const writing = writeFilesAtomic(
      paths.map((path) => ({ path, text: newText(path) })),
      { workspaceFolders: [ws.root], beforeRenames: gate },
    )
    // Every temp written (and flushed): the writer waits for the gate.
    const temps = () => readdirSync(ws.path("src")).filter((name) => name.endsWith(".tmp")).length
    while (temps() < 300) await new Promise((r) => setTimeout(r, 5))
    await new Promise((r) => setTimeout(r, 200))
    for (const [i, path] of paths.entries()) expect(readFileSync(path, "utf8")).toBe(`old text ${i}\n`)
    open()
    const results = await writing
    expect(results.every((r) => "created" in r)).toBe(true)
    for (const path of paths) expect(readFileSync(path, "utf8")).toBe(newText(path))
  })

  it("writes no file and removes every temp when beforeRenames fails, each file saying why", async () => {
    ws = await tempWorkspace(files(300))
    const paths = Object.keys(files(300)).map((p) => ws.path(p))
    const results = await writeFilesAtomic(
      paths.map((path) => ({ path, text: newText(path) })),
      { workspaceFolders: [ws.root], beforeRenames: Promise.reject(new Error("the record could not be saved")) },
    )
    expect(results).toHaveLength(300)
    for (const [i, result] of results.entries())
      expect(result).toEqual({ error: new Error(`${paths[i]} was not written: the record could not be saved`) })
    for (const [i, path] of paths.entries()) expect(readFileSync(path, "utf8")).toBe(`old text ${i}\n`)
    expect(readdirSync(ws.path("src")).filter((name) => name.endsWith(".tmp"))).toEqual([])
  })

  it("writes through a symlink in a folder it resolved once for the batch, and refuses its neighbour that links out of the workspace", async () => {
    ws = await tempWorkspace({ "src/a.ts": "a\n", "src/real.ts": "real\n", "src/c.ts": "c\n" })
    const outside = execFileSync("mktemp", ["-d"], { encoding: "utf8" }).trim()
    try {
      writeFileSync(join(outside, "secret"), "secret\n")
      symlinkSync(ws.path("src/real.ts"), ws.path("src/inside-link.ts"))
      symlinkSync(join(outside, "secret"), ws.path("src/outside-link.ts"))
      const results = await writeFilesAtomic(
        ["src/a.ts", "src/inside-link.ts", "src/outside-link.ts", "src/c.ts"].map((p) => ({ path: ws.path(p), text: `${p} again\n` })),
        { workspaceFolders: [ws.root] },
      )
      expect(results[2]).toMatchObject({ error: { message: expect.stringMatching(/outside the workspace; it was not written/) } })
      expect(readFileSync(join(outside, "secret"), "utf8")).toBe("secret\n")
      expect(readFileSync(ws.path("src/real.ts"), "utf8")).toBe("src/inside-link.ts again\n")
      expect(lstatSync(ws.path("src/inside-link.ts")).isSymbolicLink()).toBe(true)
      for (const p of ["src/a.ts", "src/c.ts"]) expect(readFileSync(ws.path(p), "utf8")).toBe(`${p} again\n`)
    } finally {
      execFileSync("rm", ["-rf", outside])
    }
  })
})
