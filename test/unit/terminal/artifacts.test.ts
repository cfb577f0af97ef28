import { describe, expect, it } from "vitest"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, dirname, join } from "node:path"
import { finished } from "node:stream/promises"
import { dropSecret, holdSecrets } from "../../../server/src/config/secrets"
import { artifactDir, artifactPath, newArtifact, pruneStaleDirs, setArtifactDir } from "../../../server/src/terminal/artifacts"

describe("command output artifacts", () => {
  it("deletes stale artifact folders of crashed servers and keeps recent ones and other files", () => {
    const parent = mkdtempSync(join(tmpdir(), "agent-lsp-artifacts-"))
    try {
      mkdirSync(join(parent, "agent-lsp-output-old"))
      mkdirSync(join(parent, "agent-lsp-output-new"))
      writeFileSync(join(parent, "agent-lsp-output-file"), "not a folder")
      const old = new Date(Date.now() - 30 * 24 * 3600 * 1000)
      utimesSync(join(parent, "agent-lsp-output-old"), old, old)
      utimesSync(join(parent, "agent-lsp-output-file"), old, old)
      pruneStaleDirs(parent, Date.now() - 7 * 24 * 3600 * 1000)
      expect(readdirSync(parent).sort()).toEqual(["agent-lsp-output-file", "agent-lsp-output-new"])
    } finally {
      rmSync(parent, { recursive: true, force: true })
    }
  })

  it("keeps outputs in a private folder with an unpredictable name", () => {
    const dir = artifactDir()
    expect(dirname(dir)).toBe(tmpdir())
    expect(basename(dir)).toMatch(/^agent-lsp-output-[A-Za-z0-9]{6}$/)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
  })

  it("redacts a held secret even when it is split across chunks", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-lsp-artifacts-"))
    setArtifactDir(dir)
    holdSecrets({ TEST_ARTIFACT_API_KEY: "sk-test-0123456789abcdef" })
    try {
      const artifact = newArtifact()
      artifact.stream.write(Buffer.from("before sk-test-01234"))
      artifact.stream.write(Buffer.from("56789abcdef after\n"))
      artifact.stream.end()
      await finished(artifact.stream)
      expect(readFileSync(artifact.path, "utf8")).toBe("before [TEST_ARTIFACT_API_KEY redacted] after\n")
      expect(statSync(artifact.path).mode & 0o777).toBe(0o600)
    } finally {
      dropSecret("TEST_ARTIFACT_API_KEY")
      setArtifactDir(undefined)
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
