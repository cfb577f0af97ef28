import type { BrowserStep } from "../browser"

/**
 * The text part of a browser_action result: the URL, the console messages and page errors since the
 * previous action (verbatim), and what the attached screenshot shows.
 */
export function formatStep(step: BrowserStep): string {
  const lines = [`Current URL: ${step.url}`, ""]
  if (step.console.length) lines.push("Console messages since the previous action:", ...step.console)
  else lines.push("No console messages since the previous action.")
  if (step.errors.length) lines.push("", "Page errors:", ...step.errors)
  lines.push(
    "",
    `Screenshot of the ${step.viewport.width}x${step.viewport.height} viewport attached (coordinates for click/hover are in these pixels).`,
  )
  return lines.join("\n")
}
