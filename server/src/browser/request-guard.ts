import type { BrowserContext, Route } from "playwright-core"
import type { PageEvents } from "./page-events"

/**
 * Holds every request of a browser context to the rule the top-level page is held to: frames,
 * sub-resources (images, scripts, styles, fetches), redirects, `location` changes and new tabs all go
 * through Playwright's routing (CDP Fetch.requestPaused), and each `file:` URL outside the workspace or
 * under `.rooignore` is aborted before Chromium reads the file. A screenshot can therefore only show what
 * read_file could read. The model is told which URLs were blocked.
 */
export async function guardRequests(
  context: BrowserContext,
  events: PageEvents,
  checkUrl: (url: string) => string | undefined,
): Promise<void> {
  await context.route(
    () => true,
    (route: Route) => {
      const url = route.request().url()
      const refusal = checkUrl(url)
      if (refusal === undefined) return route.continue().catch(() => undefined)
      // Reported every time (PageEvents bounds the count): each step says what its own page tried.
      events.addError(`Blocked ${url}: ${refusal}`)
      return route.abort("accessdenied").catch(() => undefined)
    },
  )
}
