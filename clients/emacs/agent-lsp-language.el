;;; agent-lsp-language.el --- The editor's language servers for agent-lsp  -*- lexical-binding: t; -*-

;; This file is part of agent-lsp (MIT licence).

;;; Commentary:

;; The agent's `lsp' and `rename_symbol' tools ask `agent/languageFeature'
;; (the package declares `experimental.agent.languageFeature').  The
;; answer comes from the eglot server that manages the file's buffer
;; (another eglot server than agent-lsp's own: eglot runs one per major
;; mode): the file is visited without being shown, so eglot opens it in
;; that server, and the matching LSP request goes to it with
;; `jsonrpc-request'.  No server for the file answers null.

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'jsonrpc)
(require 'agent-lsp-server)
(require 'agent-lsp-mirror)

(defcustom agent-lsp-language-timeout 20
  "Seconds one request to a language server may take for the agent.
Below the server's `agent.timeouts.editorSeconds' (30 by default)."
  :type 'number
  :group 'agent-lsp)

(defconst agent-lsp-language--requests
  '((goToDefinition . :textDocument/definition)
    (findReferences . :textDocument/references)
    (hover . :textDocument/hover)
    (documentSymbol . :textDocument/documentSymbol)
    (goToImplementation . :textDocument/implementation)
    (rename . :textDocument/rename))
  "The LSP request of each single-request operation.")

(defun agent-lsp-language--usable-p (server)
  "Non-nil when SERVER is a live eglot server other than agent-lsp's."
  (and server (not (cl-typep server 'agent-lsp-server)) (jsonrpc-running-p server)))

(defvar eglot--cached-server)

(defun agent-lsp-language--server-of (uri)
  "The eglot server managing URI's buffer, visiting the file unseen if need be."
  (let* (;; Eglot's request dispatcher let-binds this to agent-lsp's server, and a buffer visited now
         ;; would take that (default) value as its own server: unbind it here.
         (eglot--cached-server nil)
         (path (eglot--uri-to-path uri))
         (visited (and (file-exists-p path) (find-buffer-visiting path)))
         (buffer (or visited (and (file-exists-p path) (find-file-noselect path)))))
    (when buffer
      (with-current-buffer buffer
        ;; A buffer visited just now is open for agent-lsp too before the answer goes back (didOpen
        ;; first, on the same pipe), not 0.3 s later on the mirror's timer: a rename that follows
        ;; edits the buffer instead of writing the file behind it.
        (unless visited (ignore-errors (agent-lsp-mirror-sync)))
        (let ((server (eglot-current-server)))
          (when (agent-lsp-language--usable-p server)
            ;; A buffer visited just now: eglot manages it (and opens it in the server) here.
            (unless eglot--managed-mode (eglot--maybe-activate-editing-mode))
            server))))))

(defun agent-lsp-language--any-server ()
  "Some live eglot server other than agent-lsp's, for a workspace symbol search."
  (let (found)
    (maphash (lambda (_project servers)
               (dolist (server servers)
                 (when (and (not found) (agent-lsp-language--usable-p server))
                   (setq found server))))
             eglot--servers-by-project)
    found))

(defun agent-lsp-language--ask (server method params)
  "SERVER's answer to METHOD with PARAMS, or [] when it has none."
  (or (jsonrpc-request server method params :timeout agent-lsp-language-timeout) []))

(defun agent-lsp-language--calls (server operation document position)
  "Incoming or outgoing calls (OPERATION) of what is at POSITION in DOCUMENT."
  (let ((items (jsonrpc-request server :textDocument/prepareCallHierarchy
                                (list :textDocument document :position position)
                                :timeout agent-lsp-language-timeout))
        (method (if (equal operation "incomingCalls") :callHierarchy/incomingCalls :callHierarchy/outgoingCalls)))
    (apply #'vconcat [] (mapcar (lambda (item) (agent-lsp-language--ask server method (list :item item)))
                                (append items nil)))))

(cl-defmethod eglot-handle-request
  ((_server agent-lsp-server) (_method (eql agent/languageFeature))
   &key operation uri position query newName &allow-other-keys)
  "Answer OPERATION about URI at POSITION (QUERY, NEWNAME).
The answer is the file's own eglot server's."
  (let* ((server (if uri (agent-lsp-language--server-of uri) (agent-lsp-language--any-server)))
         (document (and uri (list :uri uri)))
         (method (alist-get (intern operation) agent-lsp-language--requests)))
    (cond
     ((not server) nil)
     ((equal operation "workspaceSymbol")
      (agent-lsp-language--ask server :workspace/symbol (list :query (or query ""))))
     ((member operation '("incomingCalls" "outgoingCalls"))
      (agent-lsp-language--calls server operation document position))
     ((equal operation "documentSymbol")
      (agent-lsp-language--ask server method (list :textDocument document)))
     ((equal operation "findReferences")
      (agent-lsp-language--ask server method (list :textDocument document :position position
                                                  :context (list :includeDeclaration t))))
     ((equal operation "rename")
      (agent-lsp-language--ask server method (list :textDocument document :position position :newName newName)))
     (method (agent-lsp-language--ask server method (list :textDocument document :position position))))))

(provide 'agent-lsp-language)
;;; agent-lsp-language.el ends here
