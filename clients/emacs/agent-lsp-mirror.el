;;; agent-lsp-mirror.el --- Tell agent-lsp about every file Emacs has open  -*- lexical-binding: t; -*-

;; This file is part of agent-lsp (MIT licence).

;;; Commentary:

;; Eglot runs one server per major mode, so agent-lsp hears `didOpen'
;; only for buffers of the mode it manages.  A file open in another mode
;; (say a.js, managed by typescript-language-server) would look closed to
;; it, and its edits would be written to disk behind that buffer.  This
;; file sends `didOpen', `didChange' (the whole text, batched on a short
;; timer), `didSave' and `didClose' for every other file buffer in the
;; server's project, so the server edits those through
;; `workspace/applyEdit' too and knows when they hold unsaved changes.
;; Their versions are this file's own count: before such an edit is
;; applied, its version is checked here (eglot would compare it with the
;; buffer's own server's count) and then dropped.

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'jsonrpc)
(require 'agent-lsp-server)

(declare-function agent-lsp--servers "agent-lsp")
(declare-function agent-lsp--language-id "agent-lsp")

(defvar-local agent-lsp-mirror--server nil
  "The agent-lsp connection this buffer is mirrored to, or nil.")
(defvar-local agent-lsp-mirror--version 0
  "The version of this buffer's text the server was last told.")
(defvar-local agent-lsp-mirror--dirty nil
  "Non-nil when this buffer changed since the server was last told.")

(defvar agent-lsp-mirror--timer nil
  "The pending flush of changed buffers, or nil.")

(defun agent-lsp-mirror--uri ()
  "The URI of the current buffer's file."
  (eglot--path-to-uri buffer-file-name))

(defun agent-lsp-mirror--wanted-server ()
  "The agent-lsp connection that should see the current buffer, or nil.
One whose project holds the file and which does not manage the buffer itself."
  (when (and buffer-file-name (not (minibufferp)))
    (let ((own (ignore-errors (eglot-current-server))))
      (cl-find-if (lambda (server)
                    (and (not (eq server own))
                         (file-in-directory-p buffer-file-name
                                              (project-root (eglot--project server)))))
                  (ignore-errors (agent-lsp--servers))))))

(defun agent-lsp-mirror--forget ()
  "Stop mirroring the current buffer (without telling the server)."
  (remove-hook 'after-change-functions #'agent-lsp-mirror--changed t)
  (remove-hook 'after-save-hook #'agent-lsp-mirror--saved t)
  (remove-hook 'kill-buffer-hook #'agent-lsp-mirror--closed t)
  (setq agent-lsp-mirror--server nil agent-lsp-mirror--dirty nil))

(defun agent-lsp-mirror--open (server)
  "Mirror the current buffer to SERVER: didOpen with its text."
  (setq agent-lsp-mirror--server server
        agent-lsp-mirror--version (1+ agent-lsp-mirror--version)
        agent-lsp-mirror--dirty nil)
  (add-hook 'after-change-functions #'agent-lsp-mirror--changed nil t)
  (add-hook 'after-save-hook #'agent-lsp-mirror--saved nil t)
  (add-hook 'kill-buffer-hook #'agent-lsp-mirror--closed nil t)
  (jsonrpc-notify server :textDocument/didOpen
                  (list :textDocument
                        (list :uri (agent-lsp-mirror--uri)
                              :languageId (agent-lsp--language-id)
                              :version agent-lsp-mirror--version
                              :text (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max)))))))

(defun agent-lsp-mirror-sync ()
  "Bring the current buffer's mirror up to date: open, change or forget it."
  (let ((wanted (agent-lsp-mirror--wanted-server)))
    (cond ((and agent-lsp-mirror--server (not (eq wanted agent-lsp-mirror--server)))
           ;; Its server died, or now manages the buffer itself (eglot sent didOpen then).
           (agent-lsp-mirror--forget)
           (when wanted (agent-lsp-mirror--open wanted)))
          ((and wanted (not agent-lsp-mirror--server)) (agent-lsp-mirror--open wanted))
          ((and agent-lsp-mirror--server agent-lsp-mirror--dirty)
           (setq agent-lsp-mirror--dirty nil
                 agent-lsp-mirror--version (1+ agent-lsp-mirror--version))
           (jsonrpc-notify agent-lsp-mirror--server :textDocument/didChange
                           (list :textDocument (list :uri (agent-lsp-mirror--uri)
                                                     :version agent-lsp-mirror--version)
                                 :contentChanges
                                 (vector (list :text (save-restriction
                                                       (widen)
                                                       (buffer-substring-no-properties (point-min) (point-max)))))))))))

(defun agent-lsp-mirror-all ()
  "Mirror or update every file buffer (on connect, and on the flush timer)."
  (setq agent-lsp-mirror--timer nil)
  (dolist (buffer (buffer-list))
    (when (buffer-file-name buffer)
      (with-current-buffer buffer (ignore-errors (agent-lsp-mirror-sync))))))

(defun agent-lsp-mirror--schedule ()
  "Flush soon: a plain timer, so it also runs while Emacs is busy or in batch."
  (unless agent-lsp-mirror--timer
    (setq agent-lsp-mirror--timer (run-at-time 0.3 nil #'agent-lsp-mirror-all))))

(defun agent-lsp-mirror--changed (&rest _)
  "Note a change of a mirrored buffer."
  (setq agent-lsp-mirror--dirty t)
  (agent-lsp-mirror--schedule))

(defun agent-lsp-mirror--saved ()
  "Tell the server a mirrored buffer was saved, after its last change."
  (agent-lsp-mirror-sync)
  (when agent-lsp-mirror--server
    (jsonrpc-notify agent-lsp-mirror--server :textDocument/didSave
                    (list :textDocument (list :uri (agent-lsp-mirror--uri))))))

(defun agent-lsp-mirror--closed ()
  "Tell the server a mirrored buffer was killed."
  (when (and agent-lsp-mirror--server (jsonrpc-running-p agent-lsp-mirror--server))
    (jsonrpc-notify agent-lsp-mirror--server :textDocument/didClose
                    (list :textDocument (list :uri (agent-lsp-mirror--uri)))))
  (agent-lsp-mirror--forget))

(defun agent-lsp-mirror-prepare-edit (edit)
  "EDIT, a WorkspaceEdit from the server, ready for eglot; or a failure reason.
Mirrored buffers' versions are checked against this file's count and
dropped, since eglot would compare them with the buffer's own server's."
  (let ((changes (plist-get edit :documentChanges)) failure)
    (if (not changes)
        edit
      (let ((prepared
             (cl-map 'vector
                     (lambda (change)
                       (let* ((doc (plist-get change :textDocument))
                              (buffer (and doc (find-buffer-visiting (eglot--uri-to-path (plist-get doc :uri))))))
                         (if (not (and buffer (buffer-local-value 'agent-lsp-mirror--server buffer)))
                             change
                           (with-current-buffer buffer
                             (unless (and (not agent-lsp-mirror--dirty)
                                          (equal (plist-get doc :version) agent-lsp-mirror--version))
                               (setq failure (format "%s changed in Emacs since the server last saw it" (buffer-name)))))
                           (let ((copy (copy-sequence change)))
                             (plist-put copy :textDocument (list :uri (plist-get doc :uri) :version nil))))))
                     changes)))
        (or failure (plist-put (copy-sequence edit) :documentChanges prepared))))))

(add-hook 'find-file-hook #'agent-lsp-mirror--schedule)
(add-hook 'eglot-connect-hook
          (lambda (server) (when (cl-typep server 'agent-lsp-server) (agent-lsp-mirror-all))))

(provide 'agent-lsp-mirror)
;;; agent-lsp-mirror.el ends here
