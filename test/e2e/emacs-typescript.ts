import { TSLS } from "../support/typescript-oracle"

/**
 * Elisp shared by the Emacs tests on the TypeScript project of test/support/typescript-oracle.ts: the
 * agent-lsp client pointed at the built server (checkpoints off), a mode for .ts files (Emacs 28 has no
 * TypeScript mode: a user's config gives them one), and `(agent-test-start-typescript PROJECT MAIN)`, which
 * starts eglot on typescript-language-server for PROJECT and returns non-nil once the server has loaded the
 * project: a definition asked from MAIN (src/main.ts) leads into shape.ts, within 120 s.
 */
export function typescriptEmacsPrelude(serverEntry: string): string {
  return `
    (require 'agent-lsp)
    (setq agent-lsp-server-command (list "node" ${JSON.stringify(serverEntry)} "--stdio"))
    (setq agent-lsp-initialization-options '(:agent (:checkpoints (:enabled :json-false))))
    (define-derived-mode agent-test-ts-mode prog-mode "TS")
    (add-to-list 'auto-mode-alist '("\\\\.ts\\\\'" . agent-test-ts-mode))
    (defun agent-test-start-typescript (project main)
      (let ((eglot-sync-connect t))
        (eglot (list 'agent-test-ts-mode) project 'eglot-lsp-server
               (list "node" ${JSON.stringify(TSLS)} "--stdio") "typescript"))
      (agent-lsp-test-wait
       (lambda ()
         (with-current-buffer main
           (string-match-p "shape\\\\.ts"
                           (format "%S" (ignore-errors
                                          (jsonrpc-request (eglot-current-server) :textDocument/definition
                                                           (list :textDocument (list :uri (eglot--path-to-uri (buffer-file-name)))
                                                                 :position (list :line 4 :character 10))
                                                           :timeout 30))))))
       120))
  `
}
