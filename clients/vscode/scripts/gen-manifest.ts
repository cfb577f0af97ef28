/** Writes the generated parts of the extension (see manifest.ts). */
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { renderManifest, renderSettingKeys } from "./manifest"

// clients/vscode/package.json has no "type": "module" (the bundle is CommonJS), so no top-level await here.
async function main(): Promise<void> {
  const dir = join(__dirname, "..")
  const manifestPath = join(dir, "package.json")
  await writeFile(manifestPath, renderManifest(JSON.parse(await readFile(manifestPath, "utf8"))))
  await writeFile(join(dir, "src", "setting-keys.ts"), renderSettingKeys())
  console.log("wrote clients/vscode/package.json (contributes.configuration) and src/setting-keys.ts")
}

void main()
