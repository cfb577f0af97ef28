import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { scanWorkspace } from "../../../server/src/sandbox/workspace-scan"
import { sandboxTestFolders, startSandboxed } from "../../support/sandboxed-command"
import type { TempWorkspace } from "../../support/temp-workspace"

/**
 * The workspace scan does not walk dependency folders (policy.ts UNSCANNED_FOLDERS): what that leaves out,
 * and what still holds, with real commands in real bubblewrap.
 */

const folders = sandboxTestFolders()

async function run(ws: TempWorkspace, command: string): Promise<string> {
  const policy = { workspaceFolders: [ws.root], home: folders.home().root, network: { allowedHosts: [] } }
  return (await startSandboxed(command, policy).done).output
}

describe("dependency folders in the sandbox", () => {
  it("does not walk into node_modules: neither its protected names nor its .rooignored files are listed", async () => {
    const ws = await folders.workspace({
      "src/.vscode/settings.json": "{}\n",
      "node_modules/pkg/.vscode/settings.json": "{}\n",
      "node_modules/pkg/keys/test.pem": "PEM\n",
      ".rooignore": "*.pem\n",
      "src/real.pem": "REAL\n",
    })
    const scan = scanWorkspace(ws.root)
    expect(scan.readOnly).toContain(ws.path("src/.vscode"))
    expect(scan.maskedFiles).toContain(ws.path("src/real.pem"))
    expect([...scan.readOnly, ...scan.maskedFiles, ...scan.maskedDirs].filter((p) => p.includes("node_modules"))).toEqual([])
  })

  it("still hides a node_modules the .rooignore names, whole", async () => {
    const ws = await folders.workspace({
      "node_modules/pkg/secret.txt": "DEPENDENCY-SECRET\n",
      ".rooignore": "node_modules/\n",
      "a.txt": "a\n",
    })
    const output = await run(ws, "cat node_modules/pkg/secret.txt; ls node_modules; cat a.txt")
    expect(output).not.toContain("DEPENDENCY-SECRET")
    expect(output).toContain("a\n")
  })

  it("keeps the protected paths outside dependency folders read-only at any depth", async () => {
    const ws = await folders.workspace({ "src/deep/.envrc": "export A=1\n", "node_modules/pkg/index.js": "x\n" })
    const output = await run(ws, "echo evil > src/deep/.envrc; echo y > node_modules/pkg/index.js; echo done")
    expect(output).toContain("done")
    expect(readFileSync(ws.path("src/deep/.envrc"), "utf8")).toBe("export A=1\n")
    expect(readFileSync(ws.path("node_modules/pkg/index.js"), "utf8")).toBe("y\n") // a package manager's folder: writable
  })
})
