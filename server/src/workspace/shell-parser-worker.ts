/**
 * Entry of the shell parser thread (see shell-grammars.ts): the bash grammar and web-tree-sitter's
 * WebAssembly memory live in this worker's isolate, so they go away with the thread when it is idle,
 * instead of staying resident in the server for its whole life (~17 MiB).
 * Protocol on the port in workerData: a command line (string) in; { line } or { error } out, each reply
 * followed by a bump of flags[REPLIES] so the server thread, blocked in Atomics.wait, wakes up.
 */
import { workerData, type MessagePort } from "node:worker_threads"
import { BashWalker } from "../shell"
import { newParser } from "./definitions/grammar-loader"
import { READY, REPLIES, type ShellParserReply } from "./shell-parser-protocol"

const { port, flags } = workerData as { port: MessagePort; flags: Int32Array }

function signal(index: number): void {
  Atomics.add(flags, index, 1)
  Atomics.notify(flags, index)
}

newParser("tree-sitter-bash.wasm").then(
  (parser) => {
    port.on("message", (text: string) => {
      let reply: ShellParserReply
      try {
        reply = { line: new BashWalker(parser).read(text) }
      } catch (error) {
        reply = { error: error instanceof Error ? error.message : String(error) }
      }
      port.postMessage(reply)
      signal(REPLIES)
    })
    signal(READY)
  },
  (error: unknown) => {
    // Answer every line with the reason, so no caller waits out its timeout.
    const reason = `the bash grammar could not be loaded (${error instanceof Error ? error.message : String(error)})`
    port.on("message", () => {
      port.postMessage({ error: reason } satisfies ShellParserReply)
      signal(REPLIES)
    })
    signal(READY)
  },
)
