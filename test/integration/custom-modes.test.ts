import { writeFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

const docsMode = `customModes:
  - slug: docs
    name: Docs writer
    roleDefinition: You write documentation.
    groups:
      - read
      - - edit
        - fileRegex: \\.md$
          description: Markdown only
`

describe("custom modes from .roomodes through the server", () => {
  it("lists valid custom modes, tells the user about a broken entry, and picks up changes to the file", async () => {
    const ws = await tempWorkspace({
      ".roomodes": `${docsMode}  - slug: "Bad Slug!"\n    name: Broken\n    roleDefinition: x\n    groups: [read]\n`,
    })
    const { server } = await startSession([], { workspace: ws.root })
    const { modes } = await server.request("agent/listModes", {})
    expect(modes.map((m: { slug: string }) => m.slug)).toEqual(expect.arrayContaining(["code", "architect", "docs"]))
    expect(modes.find((m: { slug: string }) => m.slug === "docs")).toMatchObject({ name: "Docs writer", source: "workspace" })
    const warning = await server.waitFor(
      () => server.notifications.find((n) => n.method === "window/showMessage" && String(n.params.message).includes(".roomodes")),
      10_000,
      "the warning",
    )
    expect(warning.params.message).toMatch(/Bad Slug!/)

    writeFileSync(ws.path(".roomodes"), docsMode.replace("slug: docs", "slug: guides").replace("Docs writer", "Guides writer"))
    // The server watches the file; poll the mode list until the change shows (or give up after 10 s).
    const deadline = Date.now() + 10_000
    let slugs: string[] = []
    while (Date.now() < deadline) {
      slugs = (await server.request("agent/listModes", {})).modes.map((m: { slug: string }) => m.slug)
      if (slugs.includes("guides")) break
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(slugs).toContain("guides")
    expect(slugs).not.toContain("docs")
  })
})
