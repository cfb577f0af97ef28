import { describe, expect, it } from "vitest"
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { artifactPath, pruneArtifacts, setArtifactDir } from "../../../server/src/terminal/artifacts"

describe("command output artifacts", () => {
  it("deletes outputs older than the cut-off and keeps the rest", () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-lsp-artifacts-"))
    try {
      writeFileSync(join(dir, "cmd-1-aaaaaa.txt"), "old")
      writeFileSync(join(dir, "cmd-2-bbbbbb.txt"), "new")
      writeFileSync(join(dir, "other.txt"), "not an artifact")
      const old = new Date(Date.now() - 30 * 24 * 3600 * 1000)
      utimesSync(join(dir, "cmd-1-aaaaaa.txt"), old, old)
      utimesSync(join(dir, "other.txt"), old, old)
      pruneArtifacts(dir, Date.now() - 7 * 24 * 3600 * 1000)
      expect(readdirSync(dir).sort()).toEqual(["cmd-2-bbbbbb.txt", "other.txt"])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("accepts only artifact ids, never paths", () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-lsp-artifacts-"))
    setArtifactDir(dir)
    try {
      expect(artifactPath("cmd-1-abc123.txt")).toBe(join(dir, "cmd-1-abc123.txt"))
      expect(artifactPath("../cmd-1-abc123.txt")).toBeUndefined()
      expect(artifactPath("cmd-1/../../x.txt")).toBeUndefined()
    } finally {
      setArtifactDir(undefined)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
