import { z } from "zod"
import { defineTool, errorResult, textResult } from "./tool"

const description = `Switch this task to another mode (for example to "code" to implement a plan, or to "architect" to plan first). The tools offered change with the mode from your next request. The user may need to approve.`

export const switchMode = defineTool({
  name: "switch_mode",
  group: "always",
  params: z.object({
    mode_slug: z.string().min(1).describe('Slug of the mode to switch to, e.g. "code"'),
    reason: z.string().optional().describe("Why the switch is needed"),
  }),
  description,
  available: () => true,
  async prepare({ mode_slug, reason }, ctx) {
    const slugs = ctx.task.modeSlugs()
    if (!slugs.includes(mode_slug))
      return {
        result: errorResult(
          `Unknown mode "${mode_slug}". The modes are: ${slugs.join(", ")}. Call switch_mode again with one of these slugs.`,
        ),
      }
    if (mode_slug === ctx.task.mode) return { result: errorResult(`The task is already in "${mode_slug}" mode; continue with the task.`) }
    const from = ctx.task.mode
    return {
      preview: {
        subject: { kind: "modeSwitch", mode: mode_slug },
        title: `Switch to ${mode_slug} mode`,
        detail: reason ? `From ${from} to ${mode_slug}: ${reason}` : `From ${from} to ${mode_slug}`,
      },
      async run() {
        await ctx.task.switchMode(mode_slug, reason ?? "")
        return textResult(`Switched from "${from}" to "${mode_slug}" mode. Its tools are available from your next request.`)
      },
    }
  },
})
