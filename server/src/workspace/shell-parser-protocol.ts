import type { ParsedCommandLine } from "../shell"

/**
 * What the server thread and the shell parser thread (shell-parser-worker.ts) share: indexes into the
 * shared Int32Array and the reply to one command line.
 */

/** flags[READY] becomes 1 once the worker can answer (grammar loaded, or known not to load). */
export const READY = 0
/** flags[REPLIES] is bumped after every reply is posted, waking the server thread in Atomics.wait. */
export const REPLIES = 1

/** The worker's answer for one command line. */
export type ShellParserReply = { line: ParsedCommandLine } | { error: string }
