import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { defaultSettings } from "../../../server/src/config/schema"
import { LanguageServerDiagnostics } from "../../../server/src/diagnostics/language-server-diagnostics"
import { LanguageServers } from "../../../server/src/language/language-servers"

// A folder of its own: the server runs in the sandbox, which scans its workspace folder (all of /tmp, on a
// busy machine, took seconds of the bound below).
const folder = mkdtempSync(join(tmpdir(), "language-server-failures-"))
const file = join(folder, "a.ts")
afterAll(() => rmSync(folder, { recursive: true, force: true }))

function withServer(command: string[], timeoutSeconds: number, log: string[]) {
  const defaults = defaultSettings()
  const settings = {
    ...defaults,
    diagnostics: { ...defaults.diagnostics, timeoutSeconds, languageServers: { typescript: { command, extensions: [".ts"] } } },
  }
  const servers = new LanguageServers({ folders: () => [folder], settings: () => settings, log: (m) => log.push(m) })
  const diagnostics = new LanguageServerDiagnostics({ servers, settings: () => settings, log: (m) => log.push(m) })
  return Object.assign(diagnostics, { dispose: () => servers.dispose() })
}

describe("a configured language server that does not work", () => {
  it("that cannot start: the edit goes on without problems, and the log names the program", async () => {
    const log: string[] = []
    const diagnostics = withServer(["/nonexistent/language-server", "--stdio"], 5, log)
    try {
      const watch = await diagnostics.watch(file, "const a = 1\n", new AbortController().signal)
      expect(watch?.before).toBeUndefined()
      expect(await watch?.after("const a = 2\n", new AbortController().signal)).toBeUndefined()
      expect(log.join("\n")).toContain("could not start: /nonexistent/language-server was not found")
    } finally {
      await diagnostics.dispose()
    }
  })

  it("that never answers initialize: each wait ends at diagnostics.timeoutSeconds", async () => {
    const diagnostics = withServer(["sleep", "30"], 1, [])
    try {
      const started = Date.now()
      const watch = await diagnostics.watch(file, "const a = 1\n", new AbortController().signal)
      expect(watch?.before).toBeUndefined()
      expect(await watch?.after("const a = 2\n", new AbortController().signal)).toBeUndefined()
      // Two bounded waits of 1 s each; without the bound this never returns.
      expect(Date.now() - started).toBeLessThan(10_000)
    } finally {
      await diagnostics.dispose()
    }
  }, 20_000)
})
