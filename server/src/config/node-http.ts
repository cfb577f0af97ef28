import type * as Http from "node:http"
import { createRequire } from "node:module"

/**
 * node:http, taken with require(). Node 22 and later give node:http lazy getters for its undici-based classes;
 * importing it as an ES module evaluates every export and so loads undici (+0.6 s and +17 MB at start-up on
 * Node 24, measured with `npm run bench -- cold-start`). require() gives the module object, whose getters run
 * only when read: take the functions you use from it (`const { createServer } = nodeHttp`). The server's one
 * way to node:http (test/unit/launch/builtin-imports.test.ts). Here in config/, the lowest layer, so that
 * sandbox/ (the network proxy) and mcp/ (the OAuth callback) share it.
 */
export const nodeHttp = createRequire(import.meta.url)("node:http") as typeof Http
