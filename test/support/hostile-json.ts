import fc from "fast-check"

/**
 * Hostile JSON for wire tests, as raw JSON text (10,000 levels of nesting cannot pass through JSON.stringify
 * on our side): wrong types, prototype keys and values, huge strings, deep nesting, numbers JSON parses to
 * Infinity or loses, and URIs and paths a handler would turn into a file name.
 */

/** How many generated cases each fuzz property runs: WIRE_FUZZ_RUNS raises it for a longer hunt. */
export const FUZZ_RUNS = Number(process.env.WIRE_FUZZ_RUNS ?? 0) || undefined
/** The seed of every fuzz property; WIRE_FUZZ_SEED replays another run (fast-check prints it on failure). */
export const FUZZ_SEED = Number(process.env.WIRE_FUZZ_SEED ?? 7)

/** The notifications an LSP client sends the server: each wire fuzz test sends them hostile params. */
export const LSP_CLIENT_NOTIFICATIONS: readonly string[] = [
  "$/cancelRequest",
  "$/setTrace",
  "$/progress",
  "initialized",
  "workspace/didChangeConfiguration",
  "workspace/didChangeWorkspaceFolders",
  "workspace/didChangeWatchedFiles",
  "textDocument/didOpen",
  "textDocument/didChange",
  "textDocument/didSave",
  "textDocument/didClose",
  "window/workDoneProgress/cancel",
  "notebookDocument/didOpen",
]

export const DEEP_OBJECT = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`
export const DEEP_ARRAY = `${"[".repeat(10_000)}${"]".repeat(10_000)}`
/** A 2 MB string value (one of 1-10 MB is the brief; 2 MB keeps CI fast and is over every bound we set). */
export const HUGE_STRING = JSON.stringify("x".repeat(2 * 1024 * 1024))

const HOSTILE_STRINGS = [
  "",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "../../../etc/passwd",
  "..",
  "HEAD",
  "--output=/dev/null",
  "a\u0000b",
  "file://evil.example/etc/passwd",
  "file:///tmp%2Fetc/passwd",
  "file:///a/%00b",
  "file:///%",
  "file:///%E0%A4%A",
  "file:",
  "file:///../../etc/passwd",
  "http://127.0.0.1:1/x",
  "javascript:alert(1)",
  "relative/path.ts",
  "\\\\server\\share",
  "\u202e\ufeff",
]

/** JSON texts of numbers: JSON.parse gives Infinity, -Infinity, -0, an unsafe integer, a negative. */
const HOSTILE_NUMBERS = ["1e400", "-1e400", "-0", "9007199254740993", "-1", "1.5", "0"]

const PROTOTYPE_OBJECTS = [
  '{"__proto__":{"taskId":"x","polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"prototype":{},"__proto__":null}',
]

/** One hostile JSON value, as text. */
export const hostileValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? "null") },
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS).map((s) => JSON.stringify(s)) },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_OBJECTS) },
  { weight: 1, arbitrary: fc.constantFrom(DEEP_OBJECT, DEEP_ARRAY, HUGE_STRING) },
)

/** Params as text: a hostile value itself, or an object of the fields the fronts read, each hostile. */
export function hostileParams(fields: readonly string[]): fc.Arbitrary<string | undefined> {
  const object = fc
    .array(fc.tuple(fc.constantFrom(...fields, "__proto__", "constructor", "extra"), hostileValue), { maxLength: 5 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`)
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: hostileValue },
    { weight: 5, arbitrary: object },
  )
}

/** A JSON-RPC message as text, with params given as raw JSON text. */
export function rawMessage(method: string, id: number | undefined, params: string | undefined): string {
  return `{"jsonrpc":"2.0"${id === undefined ? "" : `,"id":${id}`},"method":${JSON.stringify(method)}${params === undefined ? "" : `,"params":${params}`}}`
}

/** What an error message must never carry: a stack frame, or where the server lives on disk. */
export function leaks(message: string, serverRoot: string): string | undefined {
  if (/\n\s+at /.test(message)) return "a stack trace"
  if (message.includes(serverRoot)) return `the server's path ${serverRoot}`
  return undefined
}
