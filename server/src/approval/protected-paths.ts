/** The protected-path list lives in config/ so the OS sandbox (sandbox/) reads the same list the tools use. */
export { defaultProtectedDirs, isProtectedPath, userConfigDir } from "../config/protected-paths"
