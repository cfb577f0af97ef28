/**
 * `npm run gen`: writes the files derived from protocol/src (the protocol JSON with JSON Schemas and the
 * Neovim plugin's methods.lua). Run it after changing protocol/src; a unit test fails while they drift.
 */
import { mkdir, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { renderAll } from "./render"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")

for (const file of renderAll()) {
  const target = join(root, file.path)
  await mkdir(dirname(target), { recursive: true })
  await writeFile(target, file.content)
  console.log(`wrote ${file.path}`)
}
