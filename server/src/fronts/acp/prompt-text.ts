import { fileURLToPath } from "node:url"
import type { ContentBlock } from "@agentclientprotocol/sdk"

/**
 * A prompt's content blocks as the task's text: text as is, a resource link as a pointer to the file, an
 * embedded resource (the client's @-mention with contents) quoted. Images and audio are not offered in
 * our prompt capabilities, so a block of those kinds is named rather than dropped silently.
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = []
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text)
        break
      case "resource_link":
        parts.push(`See ${pathOf(block.uri)}.`)
        break
      case "resource": {
        const resource = block.resource
        if ("text" in resource) parts.push(`Contents of ${pathOf(resource.uri)}:\n\`\`\`\n${resource.text}\n\`\`\``)
        else parts.push(`(A binary resource ${pathOf(resource.uri)} was attached; it cannot be read as text.)`)
        break
      }
      default:
        parts.push(`(An ${block.type} attachment was left out: this agent takes text prompts.)`)
    }
  }
  return parts.join("\n\n")
}

function pathOf(uri: string): string {
  try {
    return uri.startsWith("file:") ? fileURLToPath(uri) : uri
  } catch {
    return uri
  }
}
