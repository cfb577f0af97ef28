import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { readIndexableText } from "../../../server/src/index/file-scan"
import { readConfinement } from "../../../server/src/workspace/guard"
import { tempWorkspace } from "../../support/temp-workspace"

/**
 * The indexer lstats a file, then reads it: a file swapped for a link in between is checked on the open
 * descriptor, so neither a file outside the workspace nor a .rooignore'd one lands in the index (and in
 * codebase_search results). Here the link is in place before the read: the check on the descriptor alone must refuse it.
 */
describe("reading a file for the codebase index", () => {
  it("refuses a link out of the workspace or to a .rooignore'd file, and reads a plain file", async () => {
    const ws = await tempWorkspace({ ".rooignore": "secrets/\n", "secrets/key.ts": "IGNORED-SECRET\n", "a.ts": "plain\n" })
    onTestFinished(() => ws.cleanup())
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "agent-lsp-outside-")))
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
    writeFileSync(join(outside, "x.ts"), "OUTSIDE-SECRET\n")
    symlinkSync(join(outside, "x.ts"), ws.path("out.ts"))
    symlinkSync("secrets/key.ts", ws.path("ignored.ts"))
    const confine = (shown: string) =>
      readConfinement({ workspaceFolders: [ws.root], settings: { files: { readOutsideWorkspace: false } } }, shown)
    expect(await readIndexableText(ws.path("out.ts"), confine("out.ts"))).toBeUndefined()
    expect(await readIndexableText(ws.path("ignored.ts"), confine("ignored.ts"))).toBeUndefined()
    expect(await readIndexableText(ws.path("a.ts"), confine("a.ts"))).toBe("plain\n")
  })
})
