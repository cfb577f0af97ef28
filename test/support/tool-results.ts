import type { RecordedRequest } from "./loopback-api"

/** The tool_result block for `toolUseId` in the last message of a request the fake received. */
export function toolResultIn(request: RecordedRequest | undefined, toolUseId: string): any {
  return request?.body.messages.at(-1)?.content.find((b: any) => b.type === "tool_result" && b.tool_use_id === toolUseId)
}

/** The tool_result blocks of the last message of a request body the fake received. */
export const toolResultsOf = (body: any): any[] => body.messages.at(-1).content.filter((b: any) => b.type === "tool_result")

/** The text of a tool_result block (string or text parts). */
export const toolResultText = (result: any): string =>
  typeof result.content === "string" ? result.content : result.content.map((c: any) => c.text ?? "").join("\n")
