/**
 * Writes the generated documentation: docs/settings.md (settings schema + trust rule) and docs/tools.md
 * (tool registry). Part of `npm run gen`; run it after adding a setting or a tool.
 * test/unit/docs/generated-docs.test.ts fails while a file is stale.
 */
import { mkdir, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { GENERATED_DOCS } from "./generated"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")

for (const doc of GENERATED_DOCS) {
  const target = join(root, doc.path)
  await mkdir(dirname(target), { recursive: true })
  await writeFile(target, doc.render())
  console.log(`wrote ${doc.path}`)
}
