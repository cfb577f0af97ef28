// Packages the server bundle leaves external (scripts/build.mjs) and resolves from node_modules at run
// time: they locate their own files (wasm, native binaries, browser drivers) next to themselves, or are big
// and loaded only when a feature needs them. One list, read by the build and by the .vsix packer
// (clients/vscode/scripts/package.ts), which ships these beside the server it bundles.

/** Every package the server imports but does not bundle. */
export const SERVER_EXTERNALS = [
  "@vscode/ripgrep",
  "web-tree-sitter",
  "@vscode/tree-sitter-wasm",
  "re2-wasm",
  "@lancedb/lancedb",
  "apache-arrow",
  "@qdrant/js-client-rest",
  "playwright-core",
]

/**
 * Externals the .vsix leaves out, each with why: the .vsix is one platform-neutral file, and LanceDB's
 * native binary is 155 MB per platform. Without it, embedder vectors need agent.codebaseIndex.qdrantUrl (the server
 * says so when an embedder is configured), or the server installed with npm (agent.client.serverPath).
 */
export const VSIX_LEFT_OUT = {
  "@lancedb/lancedb": "a 155 MB native binary per platform",
  "apache-arrow": "only LanceDB uses it",
}
