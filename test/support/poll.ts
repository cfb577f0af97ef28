/** Resolves once `ok()` holds, checking every `everyMs` (20); rejects, naming `what`, after `ms`. */
export async function pollUntil(what: string, ok: () => boolean, ms: number, everyMs = 20): Promise<void> {
  const until = Date.now() + ms
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
