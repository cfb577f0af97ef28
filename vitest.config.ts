import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@agent-lsp\/protocol$/, replacement: fileURLToPath(new URL("./protocol/src/index.ts", import.meta.url)) },
      { find: /^@agent-lsp\/protocol\/(.*)$/, replacement: fileURLToPath(new URL("./protocol/src/$1", import.meta.url)) },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Integration tests spawn the built server and real processes; give them room on 2 cores.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
})
