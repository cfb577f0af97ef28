import { readFileSync } from "node:fs"
import { join } from "node:path"
import Ajv from "ajv"
import addFormats from "ajv-formats"
import { describe, expect, it } from "vitest"

// The ACP Registry's own checks (its .github/workflows/build_registry.py at the commit named in
// test/fixtures/acp-registry/SOURCE.md), run on our manifest: the JSON schema, the folder name, the
// versions, and the icon's size and colours.
const root = join(__dirname, "..", "..")
const folder = join(root, "registry", "agent-lsp")
const manifest = JSON.parse(readFileSync(join(folder, "agent.json"), "utf8"))
const schema = JSON.parse(readFileSync(join(root, "test", "fixtures", "acp-registry", "agent.schema.json"), "utf8"))
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))

describe("the ACP Registry manifest (registry/agent-lsp)", () => {
  it("is valid against the registry's agent schema", () => {
    const ajv = new Ajv({ allErrors: true, strict: false })
    addFormats(ajv)
    const validate = ajv.compile(schema)
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true)
  })

  it("names its folder, and the version and npm package of this package.json, without @latest", () => {
    expect(manifest.id).toBe("agent-lsp")
    expect(manifest.version).toBe(pkg.version)
    expect(manifest.license).toBe(pkg.license)
    const npx = manifest.distribution.npx
    expect(npx.package).toBe(`${pkg.name}@${pkg.version}`)
    expect(npx.args).toEqual(["--acp"])
    // npx runs the package's one bin, which the published files must contain.
    expect(Object.values(pkg.bin)).toEqual(["dist/agent-lsp.mjs"])
    expect(pkg.files).toContain("dist/")
  })

  it("has a square 16x16 icon in currentColor only", () => {
    expect(manifest.icon).toBe("./icon.svg")
    const svg = readFileSync(join(folder, "icon.svg"), "utf8")
    expect(svg).toMatch(/<svg[^>]*\swidth="16"/)
    expect(svg).toMatch(/<svg[^>]*\sheight="16"/)
    for (const [, value] of svg.matchAll(/\b(?:fill|stroke)\s*=\s*["']([^"']+)["']/gi))
      expect(["currentcolor", "none"]).toContain(value!.trim().toLowerCase())
    expect(svg).not.toMatch(/style=/i)
  })
})
