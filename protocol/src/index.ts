export * from "./names"
export * from "./types"
export * from "./messages"
