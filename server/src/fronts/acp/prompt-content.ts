import { fileURLToPath } from "node:url"
import type { ContentBlock } from "@agentclientprotocol/sdk"
import type { ImageBlock } from "../../task/index"
import { IMAGE_MEDIA_TYPES, MAX_IMAGE_BYTES } from "../../workspace/images"

/** A prompt as the task takes it: its text, and the images it carried (for the model, as image blocks). */
export interface PromptContent {
  text: string
  images: ImageBlock[]
}

/** An attachment the model cannot take; the message says what is allowed. */
export class PromptContentError extends Error {}

/**
 * A prompt's content blocks as the task's message: text as is, a resource link as a pointer to the file,
 * an embedded resource (the client's @-mention with contents) quoted, images as image blocks (PNG, JPEG,
 * GIF or WebP up to MAX_IMAGE_BYTES; others are refused with a PromptContentError). Audio is not offered
 * in our prompt capabilities, so such a block is named rather than dropped silently.
 */
export function promptContent(blocks: readonly ContentBlock[]): PromptContent {
  const parts: string[] = []
  const images: ImageBlock[] = []
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text)
        break
      case "image":
        images.push(imageBlock(block.mimeType, block.data, images.length + 1))
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
        parts.push(`(An ${block.type} attachment was left out: this agent takes text and images.)`)
    }
  }
  return { text: parts.join("\n\n"), images }
}

function imageBlock(mimeType: string, data: string, n: number): ImageBlock {
  if (!IMAGE_MEDIA_TYPES.has(mimeType))
    throw new PromptContentError(
      `Image ${n} is ${mimeType}; the model takes PNG, JPEG, GIF or WebP images. Convert it and attach it again.`,
    )
  // Base64 is 4 characters per 3 bytes; the padding is close enough for a limit.
  const bytes = Math.floor((data.length * 3) / 4)
  if (bytes > MAX_IMAGE_BYTES)
    throw new PromptContentError(
      `Image ${n} is ${(bytes / 1024 / 1024).toFixed(1)} MB; the limit is ${MAX_IMAGE_BYTES / 1024 / 1024} MB per image. Attach a smaller or scaled-down image.`,
    )
  return { type: "image", mediaType: mimeType as ImageBlock["mediaType"], base64: data }
}

function pathOf(uri: string): string {
  try {
    return uri.startsWith("file:") ? fileURLToPath(uri) : uri
  } catch {
    return uri
  }
}
