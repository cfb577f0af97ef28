import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { build } from "esbuild"
import { afterEach, describe, expect, it } from "vitest"
import { extensionBundleOptions } from "../../../clients/vscode/scripts/bundle-options"
import { dependencyFolders } from "../../../clients/vscode/scripts/dependency-folders"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

let ws: TempWorkspace | undefined
afterEach(async () => {
  await ws?.cleanup()
})

async function pkg(folder: string, dependencies: Record<string, string> = {}, optionalDependencies: Record<string, string> = {}) {
  await mkdir(ws!.path(folder), { recursive: true })
  await writeFile(
    join(ws!.path(folder), "package.json"),
    JSON.stringify({ name: folder.split("node_modules/").at(-1), dependencies, optionalDependencies }),
  )
}

describe("the .vsix's server dependencies", () => {
  it("follows dependencies the way Node resolves them, nested first, and leaves optional ones and nested copies out", async () => {
    ws = await tempWorkspace()
    await pkg("node_modules/@scope/client", { undici: "*", fetcher: "*" })
    await pkg("node_modules/@scope/client/node_modules/undici")
    await pkg("node_modules/fetcher", { tslib: "*" })
    await pkg("node_modules/tslib")
    await pkg("node_modules/rg", {}, { "rg-linux-x64": "*" })
    await pkg("node_modules/rg-linux-x64")
    await pkg("node_modules/unused")
    expect(dependencyFolders(ws.root, ["@scope/client", "rg"])).toEqual([
      "node_modules/@scope/client",
      "node_modules/fetcher",
      "node_modules/rg",
      "node_modules/tslib",
    ])
  })

  it("names the missing package and who needs it", async () => {
    ws = await tempWorkspace()
    await pkg("node_modules/a", { gone: "*" })
    expect(() => dependencyFolders(ws!.root, ["a"])).toThrow("gone (needed by node_modules/a) is not installed: run npm ci")
  })
})

describe("the extension's bundle", () => {
  it("leaves zod out: the extension takes values from @agent-lsp/protocol/names only, types from the rest", async () => {
    const dir = join(import.meta.dirname, "..", "..", "..", "clients", "vscode")
    const { metafile } = await build({ ...extensionBundleOptions(dir), write: false, metafile: true, minify: false })
    const inputs = Object.keys(metafile!.inputs)
    expect(inputs.some((p) => p.includes("clients/vscode/src/review-tree.ts"))).toBe(true)
    expect(inputs.filter((p) => /node_modules\/zod\//.test(p))).toEqual([])
  })
})
