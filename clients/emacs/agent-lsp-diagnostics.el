;;; agent-lsp-diagnostics.el --- Emacs's own diagnostics for agent-lsp  -*- lexical-binding: t; -*-

;; This file is part of agent-lsp (MIT licence).

;;; Commentary:

;; After an edit the server asks `agent/diagnostics' for the files it
;; touched (the package declares `experimental.agentDiagnostics'), so the
;; model hears about the problems its edit introduced.  The answer is
;; what Flymake shows in the buffer visiting each file: diagnostics from
;; another eglot server (eglot feeds Flymake; the original LSP diagnostic
;; rides along in the diagnostic's data as `eglot-lsp-diag') and from any
;; other Flymake backend.  A file no buffer visits, or a buffer without
;; `flymake-mode', has no problems to report.

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'flymake)
(require 'agent-lsp-server)

(defun agent-lsp-diagnostics--severity (type)
  "The LSP severity (1 error .. 3 information) of Flymake diagnostic TYPE.
A type's `severity' is on its symbol or on its `flymake-category'
\(:error, eglot-error and flymake-error all end at the same one)."
  (let ((level (or (get type 'severity)
                   (get (get type 'flymake-category) 'severity)
                   (warning-numeric-level :error))))
    (cond ((>= level (warning-numeric-level :error)) 1)
          ((>= level (warning-numeric-level :warning)) 2)
          (t 3))))

(defun agent-lsp-diagnostics--item (diag)
  "DIAG, a Flymake diagnostic of the current buffer, as an LSP Diagnostic."
  (let* ((data (flymake-diagnostic-data diag))
         (lsp (and (consp data) (ignore-errors (alist-get 'eglot-lsp-diag data)))))
    (if lsp
        ;; From a language server through eglot: its own range, code and source, unprefixed message.
        (cl-loop for key in '(:range :severity :code :source :message)
                 for value = (plist-get lsp key)
                 when value append (list key value))
      (let ((backend (flymake-diagnostic-backend diag)))
        `(:range (:start ,(eglot--pos-to-lsp-position (flymake-diagnostic-beg diag))
                  :end ,(eglot--pos-to-lsp-position (flymake-diagnostic-end diag)))
          :severity ,(agent-lsp-diagnostics--severity (flymake-diagnostic-type diag))
          :message ,(flymake-diagnostic-text diag)
          ,@(when (symbolp backend) (list :source (symbol-name backend))))))))

(defun agent-lsp-diagnostics--of (uri)
  "The diagnostics Flymake shows for URI's buffer, as a vector of LSP Diagnostics."
  (let ((buffer (ignore-errors (find-buffer-visiting (eglot--uri-to-path uri)))))
    (if (not (and buffer (buffer-local-value 'flymake-mode buffer)))
        []
      (with-current-buffer buffer
        (save-restriction
          (widen)
          (vconcat (mapcar #'agent-lsp-diagnostics--item (flymake-diagnostics))))))))

(cl-defmethod eglot-handle-request
  ((_server agent-lsp-server) (_method (eql agent/diagnostics)) &key uris &allow-other-keys)
  "Answer with Flymake's diagnostics of each of URIS, at once (no waiting)."
  (list :diagnostics
        (vconcat (mapcar (lambda (uri) (list :uri uri :items (agent-lsp-diagnostics--of uri)))
                         (append uris nil)))))

(provide 'agent-lsp-diagnostics)
;;; agent-lsp-diagnostics.el ends here
