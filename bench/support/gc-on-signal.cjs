// Bench-only debug hook, preloaded into the server with NODE_OPTIONS="--expose-gc --require <this file>"
// by bench/memory.bench.ts (the server itself has no GC hook): on SIGUSR2 run a full GC and print the
// process's memory on stderr as one tagged JSON line, so the bench can read memory after a full GC.
// V8 hands the pages a GC freed back to the system from a background thread after the GC returns, so the
// RSS read at once still counts them (up to ~40 MiB more than a moment later): the report also gives
// `settledRss`, read SETTLE_MS later. While a task runs that later figure includes what it allocated since.
"use strict"
const SETTLE_MS = 1000
process.on("SIGUSR2", () => {
  if (typeof globalThis.gc === "function") globalThis.gc()
  const atGc = process.memoryUsage()
  setTimeout(() => {
    const report = { ...atGc, settledRss: process.memoryUsage().rss }
    process.stderr.write(`\n@@bench-memory ${JSON.stringify(report)}\n`)
  }, SETTLE_MS)
})
