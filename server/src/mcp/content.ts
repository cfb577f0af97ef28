import type { McpCallResult, McpContent } from "./port"

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"])
/** The most of a text blob the model gets (the rest is named, not sent). */
const MAX_TEXT_BLOB_BYTES = 256 * 1024

/** Media types whose bytes are text: text/*, JSON, XML, YAML, JavaScript and their +json / +xml kin. */
export function isTextType(mimeType: string): boolean {
  const type = mimeType.split(";", 1)[0]!.trim().toLowerCase()
  return (
    type.startsWith("text/") ||
    /^application\/(json|xml|yaml|x-yaml|javascript|x-sh|toml|sql|graphql|ld\+json)$/.test(type) ||
    /\+(json|xml|yaml)$/.test(type)
  )
}

/** A content block as MCP servers send it (tools/call results and resources/read contents). */
interface RawBlock {
  type?: string
  text?: string
  data?: string
  mimeType?: string
  uri?: string
  name?: string
  blob?: string
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string }
  annotations?: { audience?: unknown }
}

/** Most of the user-only content shown in the front. */
const MAX_USER_TEXT = 16 * 1024

/** Content for the user alone: its audience names the user and not the assistant (MCP content annotations). */
function isForUserOnly(block: RawBlock): boolean {
  const audience = block.annotations?.audience
  return Array.isArray(audience) && audience.includes("user") && !audience.includes("assistant")
}

/** The user-only blocks as text for the front (images and other binaries are named, not shown). */
function userText(blocks: RawBlock[]): string | undefined {
  if (blocks.length === 0) return undefined
  const text = blocks
    .flatMap(convertBlock)
    .map((c) => (c.type === "text" ? c.text : `[${c.mediaType} image]`))
    .join("\n")
  return text.length > MAX_USER_TEXT ? `${text.slice(0, MAX_USER_TEXT)}\n[…]` : text
}

/** Turns an MCP tools/call result into tool-result content: text, images, embedded resources as text. */
export function fromCallToolResult(
  server: string,
  tool: string,
  result: { content?: unknown; isError?: unknown; structuredContent?: unknown },
): McpCallResult {
  const all = Array.isArray(result.content) ? (result.content as RawBlock[]) : []
  const blocks = all.filter((b) => !isForUserOnly(b))
  const forUser = userText(all.filter(isForUserOnly))
  const content = blocks.flatMap(convertBlock)
  if (content.length === 0 && result.structuredContent !== undefined) {
    content.push({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) })
  }
  if (content.length === 0)
    content.push({
      type: "text",
      text: forUser ? "(the tool's output was meant for the user and was shown to them)" : "(the tool returned no content)",
    })
  const isError = result.isError === true
  const links = [...new Set(blocks.flatMap((b) => (b.type === "resource_link" ? [b.uri] : b.type === "resource" ? [b.resource?.uri] : [])))]
  const resourceLinks = links.filter((uri): uri is string => typeof uri === "string" && uri.length > 0)
  const first = content.find((c) => c.type === "text")
  const line = first?.type === "text" ? first.text.split("\n", 1)[0]!.slice(0, 100) : `${content.length} block(s)`
  return {
    isError,
    content,
    summary: `${server}/${tool}${isError ? " failed" : ""}: ${line}`,
    ...(forUser ? { forUser } : {}),
    ...(resourceLinks.length ? { resourceLinks } : {}),
  }
}

/** Turns resources/read contents into tool-result content. */
export function fromReadResourceResult(server: string, uri: string, result: { contents?: unknown }): McpCallResult {
  const items = Array.isArray(result.contents) ? (result.contents as RawBlock[]) : []
  const content = items.flatMap((item) => convertBlock({ type: "resource", resource: item }))
  if (content.length === 0) content.push({ type: "text", text: `(resource ${uri} is empty)` })
  return { isError: false, content, summary: `read ${uri} from ${server}` }
}

function convertBlock(block: RawBlock): McpContent[] {
  switch (block.type) {
    case "text":
      return [{ type: "text", text: block.text ?? "" }]
    case "image":
      if (block.data && block.mimeType && IMAGE_TYPES.has(block.mimeType)) {
        return [{ type: "image", mediaType: block.mimeType as "image/png", base64: block.data }]
      }
      return [{ type: "text", text: `[image of type ${block.mimeType ?? "unknown"} omitted: only PNG, JPEG, GIF and WebP can be shown]` }]
    case "audio":
      return [{ type: "text", text: `[audio (${block.mimeType ?? "unknown type"}) omitted: audio cannot be shown]` }]
    case "resource_link":
      return [
        { type: "text", text: `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ""}; read it with access_mcp_resource]` },
      ]
    case "resource": {
      const r = block.resource ?? {}
      if (typeof r.text === "string") return [{ type: "text", text: `[resource ${r.uri ?? ""}]\n${r.text}` }]
      if (typeof r.blob === "string" && r.mimeType && IMAGE_TYPES.has(r.mimeType)) {
        return [{ type: "image", mediaType: r.mimeType as "image/png", base64: r.blob }]
      }
      // Text sent as a blob (text/*, JSON, XML, …) is text for the model.
      if (typeof r.blob === "string" && r.mimeType && isTextType(r.mimeType)) {
        const bytes = Buffer.from(r.blob, "base64")
        const text = bytes.subarray(0, MAX_TEXT_BLOB_BYTES).toString("utf8")
        const cut = bytes.length > MAX_TEXT_BLOB_BYTES ? `\n[… ${bytes.length - MAX_TEXT_BLOB_BYTES} more bytes not shown]` : ""
        return [{ type: "text", text: `[resource ${r.uri ?? ""}]\n${text}${cut}` }]
      }
      return [
        {
          type: "text",
          text: `[binary resource ${r.uri ?? ""} (${r.mimeType ?? "unknown type"}, ${Math.floor(((r.blob?.length ?? 0) * 3) / 4)} bytes) omitted]`,
        },
      ]
    }
    default:
      return [{ type: "text", text: JSON.stringify(block) }]
  }
}
