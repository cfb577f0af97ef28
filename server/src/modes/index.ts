/** Modes: tool groups, built-in modes, custom modes (.roomodes and the global file), permission checks. */
export * from "./groups"
export * from "./types"
export { BUILTIN_MODES } from "./builtin"
export {
  checkToolAccess,
  isToolAllowed,
  defaultTouchedPaths,
  compileFileRegex,
  fileRegexProblem,
  type FileRegex,
  type ToolAccess,
  type ToolPermission,
} from "./permissions"
export { parseCustomModes, type ParsedModesFile } from "./custom-modes"
export {
  ModeRegistry,
  modeSummary,
  builtinModes,
  WORKSPACE_MODES_FILE,
  GLOBAL_MODES_FILES,
  type ModeLookup,
  type ModeRegistryOptions,
} from "./registry"
