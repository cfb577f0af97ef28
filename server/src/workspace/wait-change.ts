/**
 * Blocks until flags[index] differs from `seen`, at most `ms`; false when it did not change in time.
 *
 * A wake-up alone is not taken as the change: the shell parser thread bumps the counter, then notifies, and
 * between the two the server thread can take that reply, post the next line and start waiting again; the
 * late notify then wakes a wait whose value has not changed yet (reading the reply then found none, and the
 * line was "not understood"). So the wait goes on until the value itself differs or the time is up.
 */
export function waitChange(flags: Int32Array, index: number, seen: number, ms: number): boolean {
  const deadline = performance.now() + ms
  while (Atomics.load(flags, index) === seen) {
    const left = deadline - performance.now()
    if (left <= 0) return false
    Atomics.wait(flags, index, seen, left)
  }
  return true
}
