;;; agent-lsp-server.el --- The eglot connection class of agent-lsp  -*- lexical-binding: t; -*-

;; This file is part of agent-lsp (MIT licence).

;;; Commentary:

;; The class every agent-lsp handler specializes on, in a file of its own
;; so each part of the package (and the byte compiler) can require it.

;;; Code:

(require 'eglot)

(defclass agent-lsp-server (eglot-lsp-server) ()
  :documentation "An eglot connection to agent-lsp that handles the agent/* extensions.")

(provide 'agent-lsp-server)
;;; agent-lsp-server.el ends here
