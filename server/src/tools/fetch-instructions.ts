import { notBuiltTool } from "./not-built"

/** Placeholder until the tool is built: registered, never offered, refused with a clear message if called. */
export const fetchInstructions = notBuiltTool("fetch_instructions", "always")
