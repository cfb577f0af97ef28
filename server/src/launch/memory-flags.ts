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
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? "").split(/\s+/)]
  return given.some((arg) => arg.startsWith(SEMI_SPACE_FLAG)) ? [] : [`${SEMI_SPACE_FLAG}=${SEMI_SPACE_MIB}`]
}
