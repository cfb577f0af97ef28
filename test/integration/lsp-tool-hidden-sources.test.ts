import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultSettings, type Settings } from "../../server/src/config/schema"
import { LanguageServers } from "../../server/src/language/language-servers"
import { ServerLanguagePort } from "../../server/src/language/server-language-port"
import { lsp } from "../../server/src/tools/lsp"
import { makeToolContext } from "../support/tool-context"
import { tempWorkspace } from "../support/temp-workspace"
import { positionOf, TYPESCRIPT_SERVERS } from "../support/typescript-oracle"
import { callTool, textOf } from "../unit/tools/read/run-tool"

/**
 * The language server reads `.rooignore`d files (a rename must see every use of a symbol), so its answers
 * can carry their text: typescript-language-server's hover on a constant imported from one shows the
 * constant's literal type, which is its value. The real server, a real workspace.
 */
const SECRET = "tok-7781-hidden-value"

describe("the lsp tool's hover over a .rooignore'd file (the core's own typescript-language-server)", () => {
  let ws: Awaited<ReturnType<typeof tempWorkspace>>
  let servers: LanguageServers
  let settings: Settings
  const ctx = () => makeToolContext(ws.root, { settings, language: new ServerLanguagePort(servers, () => settings) })
  const hover = async (needle: string, nth: number) =>
    textOf(await callTool(lsp, { operation: "hover", filePath: "src/main.ts", ...positionOf(ws.root, "src/main.ts", needle, nth) }, ctx()))

  beforeAll(async () => {
    ws = await tempWorkspace({
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022" }, include: ["src"] }),
      ".rooignore": "src/secrets.ts\n",
      "src/secrets.ts": `export const DEPLOY_TOKEN = "${SECRET}" as const\n`,
      "src/shape.ts": `export type Shape = "circle" | "square"\n`,
      "src/main.ts": [
        `import { DEPLOY_TOKEN } from "./secrets"`,
        `import type { Shape } from "./shape"`,
        `export function use(shape: Shape): string {`,
        `  return DEPLOY_TOKEN + shape`,
        `}`,
        ``,
      ].join("\n"),
    })
    // A generous bound: on a loaded machine the cold project load alone takes 20 s.
    settings = { ...defaultSettings(), languageServers: TYPESCRIPT_SERVERS, lsp: { ...defaultSettings().lsp, timeoutSeconds: 120 } }
    servers = new LanguageServers({ folders: () => [ws.root], settings: () => settings, log: () => undefined })
  }, 60_000)

  afterAll(async () => {
    await servers?.dispose()
    await ws?.cleanup()
  })

  it("withholds the hover of a symbol defined in a .rooignore'd file, at its import and at a use, saying why", async () => {
    for (const nth of [0, 1]) {
      const text = await hover("DEPLOY_TOKEN", nth)
      expect(text).not.toContain(SECRET)
      expect(text).toContain("the symbol is defined in a file the agent may not read (outside the workspace or .rooignore'd)")
    }
  }, 150_000)

  it("still shows the hover of a symbol defined in a file the agent may read", async () => {
    expect(await hover("Shape", 1)).toContain('type Shape = "circle" | "square"')
  }, 150_000)
})
