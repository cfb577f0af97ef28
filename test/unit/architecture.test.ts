import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { builtinModules } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"

/**
 * Architecture invariant: the "Who may import whom" table of shared/DESIGN.md, checked against every
 * import in server/src/** and protocol/src/**. The table is copied here as data; when DESIGN.md changes,
 * change RULES below with it (and say so in the commit).
 */

type Area = string

interface Rule {
  /** Our folders this one may import (its own folder and protocol/ are always allowed); "any" = all of ours. */
  ours: Area[] | "any"
  /** For folders this one may import only partly: the only files of that folder it may import. */
  onlyFiles?: Record<Area, string[]>
  /** When set, the only npm packages allowed (and no Node built-ins). */
  onlyPackages?: string[]
  /** Node built-ins this folder must not import. */
  bannedBuiltins?: string[]
  /** The rule in DESIGN.md's words, for failure messages. */
  text: string
}

const IO_BUILTINS = ["fs", "fs/promises", "child_process", "net", "http", "https", "http2", "dgram", "tls"]

/** Every folder below the fronts: what a front may import. */
const BELOW_FRONTS: Area[] = [
  "core",
  "task",
  "pipeline",
  "approval",
  "prompt",
  "tools",
  "model",
  "edits",
  "modes",
  "config",
  "workspace",
  "terminal",
  "mcp",
  "checkpoints",
  "shell",
  "index",
  "browser",
  "skills",
  "diagnostics",
  "hooks",
  "sandbox",
  "language",
]

// Copied from shared/DESIGN.md, "Who may import whom". Everyone may import protocol/ (`@agent-lsp/protocol`).
const RULES: Record<Area, Rule> = {
  protocol: { ours: [], onlyPackages: ["zod"], text: "protocol/ imports zod only" },
  "main.ts": {
    ours: ["fronts/lsp", "fronts/acp", "fronts/cli", "config", "launch"],
    text: "main.ts may import fronts/*, launch/ and config/",
  },
  // launch/ hides the API keys from the server's environment (issue 11): before any front runs.
  launch: { ours: ["config"], text: "launch/ may import config/ only" },
  // Fronts are adapters: each may import the core and everything below it, never another front.
  "fronts/lsp": { ours: BELOW_FRONTS, text: "fronts/lsp/ may import core/ and below, never another front" },
  "fronts/acp": { ours: BELOW_FRONTS, text: "fronts/acp/ may import core/ and below, never another front" },
  "fronts/cli": { ours: BELOW_FRONTS, text: "fronts/cli/ may import core/ and below, never another front" },
  // DESIGN.md's core row names task/, checkpoints/, mcp/, index/, config/; the core also builds the mode
  // registry and the MCP tools it hands the task service, and owns the per-workspace browser and skills.
  core: {
    // core/review/ renders its diffs with edits/unified-diff.ts (pure text).
    ours: [
      "task",
      "checkpoints",
      "mcp",
      "index",
      "config",
      "modes",
      "tools",
      "skills",
      "browser",
      "workspace",
      "diagnostics",
      "language",
      "edits",
    ],
    text: "core/ may import task/, checkpoints/, mcp/, index/, config/, modes/, tools/, skills/, browser/, workspace/, diagnostics/, language/, edits/ — never a front",
  },
  task: {
    ours: ["pipeline", "prompt", "model", "modes", "tools", "skills", "terminal", "browser", "config", "hooks"],
    onlyFiles: { terminal: ["server/src/terminal/background"], browser: ["server/src/browser/registry"] },
    text: "task/ may import pipeline/, prompt/, model/, modes/, tools/, skills/ (slash commands), terminal/background.ts and browser/registry.ts (the task service owns its background commands and browsers), config/, hooks/ (UserPromptSubmit, Stop, SessionStart), protocol/",
  },
  pipeline: {
    ours: ["tools", "modes", "approval", "config", "hooks"],
    text: "pipeline/ may import tools/, modes/, approval/, config/, hooks/ (PreToolUse, PostToolUse)",
  },
  approval: {
    ours: ["tools", "config", "shell"],
    onlyFiles: { tools: ["server/src/tools/context", "server/src/tools/tool"] },
    text: "approval/ may import shell/, tools/context.ts (port types), tools/tool.ts (types) and config/",
  },
  // The instruction files (AGENTS.md, .roo/rules*) are read only where the tools may read: workspace/guard.ts.
  prompt: {
    ours: ["modes", "tools", "skills", "config", "workspace"],
    onlyFiles: { workspace: ["server/src/workspace/guard"] },
    text: "prompt/ may import modes/, tools/ (names, descriptions), skills/, config/, workspace/guard.ts",
  },
  // config/ is not in DESIGN.md's tools/ row, but tools/context.ts (the contract) carries Settings, and every
  // folder tools/ may import depends on config/ anyway; what the row forbids is the fronts, core/, task/ and pipeline/.
  tools: {
    ours: ["edits", "workspace", "terminal", "mcp", "checkpoints", "index", "browser", "skills", "shell", "config", "sandbox"],
    text: "tools/ may import edits/, workspace/, terminal/, mcp/, checkpoints/, index/, browser/, skills/, shell/, sandbox/ (and config/) — never a front, core/, task/ or pipeline/",
  },
  shell: { ours: [], bannedBuiltins: IO_BUILTINS, text: "shell/ imports nothing of ours but protocol/ types and does no IO of its own" },
  index: { ours: ["config", "workspace"], text: "index/ may import config/ and workspace/" },
  browser: { ours: ["config", "workspace"], text: "browser/ may import config/ and workspace/" },
  skills: { ours: ["config", "workspace"], text: "skills/ may import config/ and workspace/" },
  // Language servers the agent starts run with a command's key-free environment (terminal/env.ts).
  diagnostics: {
    ours: ["config", "workspace", "terminal", "tools", "language"],
    onlyFiles: { tools: ["server/src/tools/context"] },
    text: "diagnostics/ may import config/, workspace/, terminal/, language/ and tools/context.ts (port types)",
  },
  // DESIGN.md's language/: the language servers the core starts, run with a command's key-free environment,
  // inside the OS sandbox (they run the workspace's own code: sandbox/language-server-sandbox.ts).
  language: {
    ours: ["config", "workspace", "terminal", "tools", "sandbox"],
    onlyFiles: { tools: ["server/src/tools/context"], sandbox: ["server/src/sandbox/language-server-sandbox"] },
    text: "language/ may import config/, workspace/, terminal/, sandbox/language-server-sandbox.ts and tools/context.ts (port types)",
  },
  model: { ours: [], text: "model/ imports @anthropic-ai/sdk, openai and protocol/ only of ours" },
  edits: { ours: [], bannedBuiltins: IO_BUILTINS, text: "edits/ imports nothing of ours but protocol/ types and does no IO" },
  // A .roomodes FIFO must not block the server: modes/ reads it with the one FIFO-safe reader, config/regular-file.ts;
  // its fileRegex patterns compile with the one lazily loaded RE2, config/re2.ts.
  modes: {
    ours: ["config"],
    onlyFiles: { config: ["server/src/config/regular-file", "server/src/config/re2"] },
    text: "modes/ imports nothing of ours but protocol/ types, config/regular-file.ts (the FIFO-safe read) and config/re2.ts (linear-time patterns)",
  },
  config: { ours: [], text: "config/ imports nothing of ours but protocol/ types" },
  // workspace/command-paths.ts checks command arguments with the one shell parser (pure, no IO).
  workspace: { ours: ["config", "shell"], text: "workspace/ may import config/ and shell/" },
  // Every command the runner starts goes through the OS sandbox (sandbox/).
  terminal: { ours: ["config", "sandbox"], text: "terminal/ may import config/ and sandbox/" },
  // The sandbox reads the protected-path list (config/protected-paths.ts) and the .rooignore file name (workspace/).
  sandbox: { ours: ["config", "workspace"], text: "sandbox/ may import config/ and workspace/" },
  // User hooks run like commands (terminal/'s launch in the OS sandbox, process groups, key-free environment; issue 23).
  hooks: { ours: ["config", "terminal", "sandbox"], text: "hooks/ may import config/, terminal/ and sandbox/" },
  mcp: { ours: ["config"], text: "mcp/ may import config/" },
  // A restore writes the workspace: through the one path sandbox and the one atomic write (DESIGN's table).
  checkpoints: {
    ours: ["config", "workspace"],
    onlyFiles: { workspace: ["server/src/workspace/sandbox", "server/src/workspace/atomic-write"] },
    text: "checkpoints/ may import config/, workspace/sandbox.ts and workspace/atomic-write.ts",
  },
}

/** npm packages only one folder may import (prefix match, so vscode-languageserver-textdocument counts). */
const EXCLUSIVE_PACKAGES: { prefix: string; area: Area; text: string }[] = [
  { prefix: "vscode-languageserver", area: "fronts/lsp", text: "only fronts/lsp/ imports vscode-languageserver*" },
  { prefix: "@agentclientprotocol/sdk", area: "fronts/acp", text: "only fronts/acp/ imports @agentclientprotocol/sdk" },
  { prefix: "@anthropic-ai/sdk", area: "model", text: "only model/ imports @anthropic-ai/sdk" },
  { prefix: "playwright-core", area: "browser", text: "only browser/ imports playwright-core" },
  { prefix: "openai", area: "model", text: "only model/ imports openai" },
]

const root = fileURLToPath(new URL("../../", import.meta.url))
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/

/** The table's folder of a repository-relative path (extension optional), or undefined when it is not ours. */
function areaOf(path: string): Area | undefined {
  const parts = path.split(sep).join("/").split("/")
  if (parts[0] === "protocol" && parts[1] === "src") return "protocol"
  if (parts[0] !== "server" || parts[1] !== "src" || parts.length < 3) return undefined
  if (parts.length === 3) {
    const name = parts[2]!.replace(SOURCE, "")
    if (name === "main") return "main.ts"
    // `import … from "../modes"` is the folder's index file.
    return RULES[name] ? name : `server/src/${parts[2]}`
  }
  // fronts/<name>/… is one area per front.
  if (parts[2] === "fronts" && parts.length > 4) return `fronts/${parts[3]}`
  return parts[2]
}

type Target = { kind: "ours"; area: Area | undefined; path: string } | { kind: "builtin"; name: string } | { kind: "package"; name: string }

function classify(fromFile: string, spec: string, base: string): Target {
  if (spec.startsWith(".")) {
    const path = relative(base, resolve(dirname(join(base, fromFile)), spec))
      .split(sep)
      .join("/")
      .replace(SOURCE, "")
    return { kind: "ours", area: areaOf(path), path }
  }
  if (spec === "@agent-lsp/protocol" || spec.startsWith("@agent-lsp/protocol/")) return { kind: "ours", area: "protocol", path: spec }
  const bare = spec.startsWith("node:") ? spec.slice(5) : spec
  if (spec.startsWith("node:") || builtinModules.includes(bare)) return { kind: "builtin", name: bare }
  const segments = spec.split("/")
  return { kind: "package", name: spec.startsWith("@") ? segments.slice(0, 2).join("/") : segments[0]! }
}

/** Why `file` (of `area`) may not import `spec`, or undefined when the import is allowed. */
function violation(area: Area, spec: string, target: Target): string | undefined {
  const rule = RULES[area]
  if (!rule) return `its folder ${area} is not in DESIGN.md's table: add it there and to this test, or move the file`
  if (target.kind === "builtin") {
    if (rule.onlyPackages) return `${rule.text} (no Node built-ins)`
    if (rule.bannedBuiltins?.includes(target.name)) return rule.text
    return undefined
  }
  if (target.kind === "package") {
    if (rule.onlyPackages && !rule.onlyPackages.includes(target.name)) return rule.text
    const exclusive = EXCLUSIVE_PACKAGES.find((p) => target.name.startsWith(p.prefix))
    if (exclusive && exclusive.area !== area) return exclusive.text
    return undefined
  }
  if (target.area === undefined) return `it reaches outside server/src and protocol/src (${target.path}); ${rule.text}`
  if (target.area === area || target.area === "protocol") return undefined
  if (!RULES[target.area]) return `${target.area} is not a folder of DESIGN.md's table`
  if (rule.ours !== "any" && !rule.ours.includes(target.area)) return rule.text
  const files = rule.onlyFiles?.[target.area]
  if (files && !files.includes(target.path)) return rule.text
  return undefined
}

async function sourceFiles(base: string, dir: string): Promise<string[]> {
  const entries = await readdir(join(base, dir), { withFileTypes: true }).catch(() => [])
  const out: string[] = []
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await sourceFiles(base, path)))
    else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path)
  }
  return out.sort()
}

/** Every import (static, re-export, side effect, dynamic import(), require()) of every file, with its line. */
async function allImports(base: string): Promise<{ file: string; line: number; spec: string }[]> {
  const files = [...(await sourceFiles(base, "server/src")), ...(await sourceFiles(base, "protocol/src"))]
  const out: { file: string; line: number; spec: string }[] = []
  for (const file of files) {
    const text = await readFile(join(base, file), "utf8")
    // The TypeScript scanner skips comments and strings, and sees multi-line imports whole.
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      const line = text.slice(0, ref.pos).split("\n").length
      out.push({ file: file.split(sep).join("/"), line, spec: ref.fileName })
    }
  }
  return out
}

async function violations(base: string): Promise<string[]> {
  const found: string[] = []
  for (const { file, line, spec } of await allImports(base)) {
    const area = areaOf(file)!
    const why = violation(area, spec, classify(file, spec, base))
    if (why) found.push(`${file}:${line} imports "${spec}": ${why} (DESIGN.md, "Who may import whom")`)
  }
  return found
}

describe("architecture: DESIGN.md's import table", () => {
  it("every import in server/src and protocol/src follows the table", async () => {
    const imports = await allImports(root)
    // Guard against a checker that reads nothing and so can never fail.
    expect(imports.some((i) => i.file.startsWith("protocol/src/") && i.spec === "zod")).toBe(true)
    expect(imports.some((i) => i.file.startsWith("server/src/tools/"))).toBe(true)
    const found = await violations(root)
    if (found.length > 0) expect.fail(`${found.length} import(s) break the architecture:\n${found.join("\n")}`)
  })

  it("flags a tool importing a front, a front importing another front, the core importing a front, a second SDK importer, IO in edits/ and approval/ reaching past tools/context.ts", async () => {
    const base = await mkdtemp(join(tmpdir(), "arch-"))
    try {
      const files: Record<string, string> = {
        "server/src/tools/bad.ts": `import { x } from "../fronts/lsp/connection"\nimport "./context"`,
        "server/src/task/loop.ts": `const sdk = await import("@anthropic-ai/sdk")`,
        "server/src/edits/io.ts": `import { readFileSync } from "node:fs"\nexport * from "../modes/builtin"`,
        "server/src/approval/flow.ts": `import type { AskPort } from "../tools/context"\nimport { registry } from "../tools/registry"`,
        "server/src/pipeline/ok.ts": `import { modes } from "../modes"\nimport { flow } from "../approval/index"`,
        "server/src/fronts/acp/agent.ts": `import { startServer } from "../lsp/server"\nimport { AgentCore } from "../../core/agent-core"`,
        "server/src/core/bad.ts": `import { LspServices } from "../fronts/lsp/lsp-services"`,
        "server/src/config/ok.ts": `// import { x } from "../fronts/lsp/connection"\nimport { z } from "zod"\nimport type { TaskUpdate } from "@agent-lsp/protocol"`,
        "server/src/main.ts": `const c = require("vscode-languageserver/node")`,
        "protocol/src/x.ts": `import { readFile } from "node:fs/promises"\nimport { z } from "zod"`,
      }
      for (const [path, text] of Object.entries(files)) {
        await mkdir(dirname(join(base, path)), { recursive: true })
        await writeFile(join(base, path), text)
      }
      const found = (await violations(base)).sort()
      expect(found).toEqual([
        `protocol/src/x.ts:1 imports "node:fs/promises": protocol/ imports zod only (no Node built-ins) (DESIGN.md, "Who may import whom")`,
        expect.stringContaining(`server/src/approval/flow.ts:2 imports "../tools/registry": approval/ may import shell/, tools/context.ts`),
        expect.stringContaining(`server/src/core/bad.ts:1 imports "../fronts/lsp/lsp-services": core/ may import`),
        expect.stringContaining(
          `server/src/edits/io.ts:1 imports "node:fs": edits/ imports nothing of ours but protocol/ types and does no IO`,
        ),
        expect.stringContaining(`server/src/edits/io.ts:2 imports "../modes/builtin": edits/`),
        expect.stringContaining(`server/src/fronts/acp/agent.ts:1 imports "../lsp/server": fronts/acp/ may import core/ and below`),
        expect.stringContaining(
          `server/src/main.ts:1 imports "vscode-languageserver/node": only fronts/lsp/ imports vscode-languageserver*`,
        ),
        expect.stringContaining(`server/src/task/loop.ts:1 imports "@anthropic-ai/sdk": only model/ imports @anthropic-ai/sdk`),
        expect.stringContaining(`server/src/tools/bad.ts:1 imports "../fronts/lsp/connection": tools/ may import`),
      ])
    } finally {
      await rm(base, { recursive: true, force: true })
    }
  })
})
