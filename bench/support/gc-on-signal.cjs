// Bench-only debug hook, preloaded into the server with NODE_OPTIONS="--expose-gc --require <this file>"
// by bench/memory.bench.ts (the server itself has no GC hook): on SIGUSR2 run a full GC and print the
// process's memory on stderr as one tagged JSON line, so the bench can read memory after a full GC.
"use strict"
process.on("SIGUSR2", () => {
  if (typeof globalThis.gc === "function") globalThis.gc()
  process.stderr.write(`\n@@bench-memory ${JSON.stringify(process.memoryUsage())}\n`)
})
