/** Types of server-externals.mjs (plain JavaScript so scripts/build.mjs runs without a TypeScript loader). */
export declare const SERVER_EXTERNALS: string[]
export declare const VSIX_LEFT_OUT: Record<string, string>
