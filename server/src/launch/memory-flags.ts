import { setFlagsFromString } from "node:v8"

/**
 * V8 flags the relaunched server starts with, for a process that lives as long as the editor. V8 grows the
 * young generation up to 16 MiB a semi-space under allocation pressure and keeps it committed after a full
 * GC: over a 200-call task that was ~20-30 MiB of RSS holding nothing (heap used stayed ~20 MiB). With 2 MiB
 * semi-spaces the server makes more, shorter scavenges and stays ~20 MiB smaller (see the README's memory
 * bench). A flag the user set (command line or NODE_OPTIONS) wins.
 */
export const SEMI_SPACE_FLAG = "--max-semi-space-size"
const SEMI_SPACE_MIB = 2

export function memoryFlags(execArgv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return givenFlags(execArgv, env).some((arg) => arg.startsWith(SEMI_SPACE_FLAG)) ? [] : [`${SEMI_SPACE_FLAG}=${SEMI_SPACE_MIB}`]
}

/** The Node and V8 flags this process was started with: its command line's and NODE_OPTIONS'. */
function givenFlags(execArgv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return [...execArgv, ...(env.NODE_OPTIONS ?? "").split(/\s+/)]
}

/**
 * V8's memory-saving heuristics for the server's heap: old-generation limits that grow conservatively and a
 * young generation that shrinks again, at some cost in collections. V8 reads this flag at every collection,
 * so it works set at start, without a relaunch (unlike the semi-space size above). Over a 200-call task the
 * server's live RSS at the end went from a median of +90 to medians of +22 to +31 MiB, and its resident
 * size during the task from 200-270 to 110-135 MiB (npm run bench -- memory). Not set when the user chose
 * either way.
 */
export function favourMemory(execArgv: readonly string[] = process.execArgv, env: NodeJS.ProcessEnv = process.env): boolean {
  if (givenFlags(execArgv, env).some((arg) => /^--(no-)?optimize[-_]for[-_]size\b/.test(arg))) return false
  setFlagsFromString("--optimize-for-size")
  return true
}
