/**
 * Lazy access to @modelcontextprotocol/sdk: nothing of the SDK is loaded until the first server
 * connects, so the language server starts without it.
 */
export type McpSdk = Awaited<ReturnType<typeof importSdk>>

let loading: Promise<McpSdk> | undefined

export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= importSdk()
  return loading
}

async function importSdk() {
  const [client, stdio, http, sse, types, auth] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/client/auth.js"),
  ])
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    SSEClientTransport: sse.SSEClientTransport,
    ListRootsRequestSchema: types.ListRootsRequestSchema,
    ElicitRequestSchema: types.ElicitRequestSchema,
    CreateMessageRequestSchema: types.CreateMessageRequestSchema,
    LoggingMessageNotificationSchema: types.LoggingMessageNotificationSchema,
    ResourceUpdatedNotificationSchema: types.ResourceUpdatedNotificationSchema,
    UnauthorizedError: auth.UnauthorizedError,
  }
}
