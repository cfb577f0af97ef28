import { describe, expect, it } from "vitest"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { join } from "node:path"

const root = fileURLToPath(new URL("../../../server/src/", import.meta.url))

describe("MCP SDK loading", () => {
  it("imports @modelcontextprotocol/sdk only dynamically, so server start-up never loads it", () => {
    const files = [
      ...readdirSync(join(root, "mcp")).map((f) => join(root, "mcp", f)),
      ...["mcp-dynamic.ts", "use-mcp-tool.ts", "access-mcp-resource.ts", "context.ts"].map((f) => join(root, "tools", f)),
    ]
    const staticImports = files.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/^\s*import\s+(?!type\b)[^;]*?from\s+["'](@modelcontextprotocol\/sdk[^"']*)["']/gm)].map(
        (m) => `${file}: ${m[1]}`,
      ),
    )
    expect(staticImports).toEqual([])
    expect(readFileSync(join(root, "mcp", "sdk.ts"), "utf8")).toContain('import("@modelcontextprotocol/sdk/client/index.js")')
  })
})
