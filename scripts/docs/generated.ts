import { renderSettingsDoc } from "./render-settings"
import { renderToolsDoc } from "./render-tools"

/** The documents `npm run gen` writes, with what renders each. */
export const GENERATED_DOCS: { path: string; render: () => string }[] = [
  { path: "docs/settings.md", render: renderSettingsDoc },
  { path: "docs/tools.md", render: renderToolsDoc },
]
