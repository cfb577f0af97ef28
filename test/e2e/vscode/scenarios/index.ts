import type { Scenario } from "../scenario"
import { editApproval, USER_MODEL } from "./edit-approval"
import { lspSymbols } from "./lsp-symbols"
import { lspTool } from "./lsp-tool"
import { rename } from "./rename"
import { review } from "./review"
import { reviewView } from "./review-view"

/** Run in this order, in one workbench: each starts a task after the one before has ended. */
export const scenarios: Scenario[] = [editApproval, lspTool, lspSymbols, rename, review, reviewView]

/** The user's settings.json for the run: what every scenario needs. */
export function userSettings(apiUrl: string): Record<string, unknown> {
  return {
    // The user's own settings: the server must honour them (VS Code's defaults must not override them).
    "agent.baseUrl": apiUrl,
    "agent.model": USER_MODEL,
    // rename_symbol is offered only when listed (it is opt-in).
    "agent.tools.enabled": ["rename_symbol"],
    // By default VS Code's TypeScript renames an export by aliasing it in the importing files
    // (import { centsOf as toCents }); the rename scenario wants every use renamed.
    "typescript.preferences.useAliasesForRenames": false,
    // With "auto", VS Code's TypeScript answers F12 from a syntax-only server until the project has loaded
    // (an imported name then goes to its import, which is what the lsp scenario saw under load): the
    // semantic server only, so the scenario checks the real definition whatever the load.
    "typescript.tsserver.useSyntaxServer": "never",
    // A quiet workbench: no welcome page, tips or recommendations in the way of the check for toasts.
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "extensions.ignoreRecommendations": true,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "window.commandCenter": false,
  }
}
