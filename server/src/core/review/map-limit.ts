/**
 * `work` over every item, at most `limit` at a time, results in the items' order. A review decides files
 * independently of each other, and each one waits mostly on the disk or the editor: one after another, a
 * thousand files pay a thousand round trips end to end.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await work(items[i]!, i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  return results
}
