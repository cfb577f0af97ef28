/** The policy's verdict for one prepared call. */
export type PolicyDecision =
  | { decision: "allow"; reason: string }
  /**
   * Ask the user; `rememberPrefixes` are what "allow always" would remember for a command;
   * `sandboxWritePaths` are the paths outside the sandbox's writable roots the command writes, which an
   * approval binds writable for that one command (it still runs sandboxed); `protectedPath`: it asks because
   * it writes a protected file, which no permission mode or hook may loosen; `unsandboxed`: it asks because the
   * OS sandbox cannot hold it (fail closed), which no hook's allow may loosen.
   */
  | {
      decision: "ask"
      reason: string
      rememberPrefixes?: string[]
      sandboxWritePaths?: string[]
      protectedPath?: boolean
      unsandboxed?: boolean
    }
  /** Refused without asking (the deny list, or the user's "reject always" earlier in this task). */
  | { decision: "deny"; reason: string }
