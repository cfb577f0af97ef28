import { readFile } from "node:fs/promises"
import { resolve } from "node:path"
import { parse } from "smol-toml"
import { describe, expect, it } from "vitest"
import { AgentCommands } from "@agent-lsp/protocol"
import { SettingsSchema } from "../../../server/src/config/schema"

const HELIX = resolve(import.meta.dirname, "..", "..", "..", "clients", "helix")

interface HelixLanguages {
  "language-server": Record<string, { command: string; args?: string[]; config?: { agent?: unknown } }>
  language: { name: string; "language-servers": string[] }[]
}

describe("Helix languages.toml snippet", () => {
  it("declares agent-lsp started with --stdio and settings the config schema accepts", async () => {
    const toml = parse(await readFile(resolve(HELIX, "languages.toml"), "utf8")) as unknown as HelixLanguages
    const server = toml["language-server"]["agent-lsp"]
    expect(server.command).toBe("agent-lsp")
    expect(server.args).toEqual(["--stdio"])
    const settings = SettingsSchema.safeParse(server.config?.agent)
    expect(settings.success, settings.error?.message).toBe(true)
  })

  it("adds agent-lsp after each language's own server, once per language", async () => {
    const toml = parse(await readFile(resolve(HELIX, "languages.toml"), "utf8")) as unknown as HelixLanguages
    const names = toml.language.map((l) => l.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual(expect.arrayContaining(["rust", "typescript", "python", "go"]))
    for (const language of toml.language) {
      expect(language["language-servers"].at(-1), language.name).toBe("agent-lsp")
      expect(language["language-servers"].length, `${language.name} keeps its own server`).toBeGreaterThan(1)
    }
  })

  it("names only real agent.* commands in the guide, with JSON-quoted arguments", async () => {
    const guide = await readFile(resolve(HELIX, "README.md"), "utf8")
    const known = new Set<string>(Object.values(AgentCommands))
    const uses = [...guide.matchAll(/:lsp-workspace-command (agent(?:\.[A-Za-z]+)+)((?: [^`\n]+)?)/g)]
    expect(uses.length).toBeGreaterThan(5)
    for (const [, command, args] of uses) {
      expect(known.has(command), command).toBe(true)
      // Every argument must be a JSON value (Helix parses them as JSON): quoted strings or objects.
      for (const arg of args.trim().match(/"(?:[^"\\]|\\.)*"|\{[^}]*\}|<[^>]*>|\S+/g) ?? []) {
        if (arg.startsWith("<")) continue // a placeholder in the quoted server notice
        expect(() => JSON.parse(arg), `${command} ${arg}`).not.toThrow()
      }
    }
  })
})
