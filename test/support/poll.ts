/** Resolves once `ok()` holds, checking every 20 ms; rejects, naming `what`, after `ms`. */
export async function pollUntil(what: string, ok: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
