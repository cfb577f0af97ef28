/** The set-up snippets `npm start` prints for each editor, with this checkout's paths (see start-hints.mjs). */
export function editorHints(root: string): { neovim: string; emacs: string; helix: string; entry: string }
/** The whole text `npm start` prints on stderr at a terminal. */
export function startHints(root: string): string
