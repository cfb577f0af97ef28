;;; agent-lsp-edits.el --- Applying and saving agent-lsp's edits  -*- lexical-binding: t; -*-

;; This file is part of agent-lsp (MIT licence).

;;; Commentary:

;; Edits arrive as `workspace/applyEdit' after you approved their diff.
;; Eglot applies them to the buffers; this file (1) does not make eglot
;; ask a second time (`agent-lsp-confirm-edits'), (2) sends the buffer's
;; `didChange' at once instead of on eglot's idle timer (for a buffer of
;; another mode, through agent-lsp-mirror.el), so the server
;; sees the edit landed without waiting for Emacs to be idle, and (3)
;; answers `agent/saveDocuments' by saving those buffers itself, so the
;; file on disk is never written behind a buffer that visits it.  A buffer
;; holding changes of yours besides the agent's is left unsaved.

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'agent-lsp-server)
(require 'agent-lsp-mirror)

(defvar agent-lsp-confirm-edits)

(defvar agent-lsp-edits--touched (make-hash-table :test 'eq :weakness 'key)
  "Buffer -> (DIRTY-BEFORE . TICK) of the agent's unsaved edits.
DIRTY-BEFORE: whether it had unsaved changes before the agent's first
unsaved edit.  TICK: its `buffer-chars-modified-tick' right after the
last one (text changes only: font-lock's property changes must not
count as the user's edits).")

(defun agent-lsp-edits--paths (edit)
  "The file paths a WorkspaceEdit EDIT touches."
  (append
   (cl-loop for change across (or (plist-get edit :documentChanges) [])
            for doc = (plist-get change :textDocument)
            when doc collect (eglot--uri-to-path (plist-get doc :uri)))
   (cl-loop for (uri _edits) on (plist-get edit :changes) by #'cddr
            collect (eglot--uri-to-path (substring (symbol-name uri) 1)))))

(cl-defmethod eglot-handle-request :around
  ((server agent-lsp-server) (method (eql workspace/applyEdit)) &rest params)
  "Apply the approved edit without a second question; signal the change at once."
  (let* ((buffers (delq nil (mapcar #'find-buffer-visiting
                                    (agent-lsp-edits--paths (plist-get params :edit)))))
         (dirty (mapcar (lambda (b) (cons b (buffer-modified-p b))) buffers))
         ;; Eglot 1.9-1.15 call the option eglot-confirm-server-initiated-edits, 1.16+
         ;; eglot-confirm-server-edits; nil means "do not ask" in both.
         (quiet (unless agent-lsp-confirm-edits
                  (cl-remove-if-not #'boundp '(eglot-confirm-server-initiated-edits
                                               eglot-confirm-server-edits))))
         (edit (agent-lsp-mirror-prepare-edit (plist-get params :edit)))
         (result (if (stringp edit)
                     (list :applied :json-false :failureReason edit)
                   (cl-progv quiet (make-list (length quiet) nil)
                     (apply #'cl-call-next-method server method
                            (plist-put (copy-sequence params) :edit edit))))))
    (dolist (entry dirty)
      (let* ((buffer (car entry))
             (previous (gethash buffer agent-lsp-edits--touched))
             (dirty-before (if previous
                               (or (car previous) (/= (cdr previous) (buffer-chars-modified-tick buffer)))
                             (cdr entry))))
        (with-current-buffer buffer
          (when (and (bound-and-true-p eglot--managed-mode)
                     (fboundp 'eglot--signal-textDocument/didChange))
            (eglot--signal-textDocument/didChange))
          ;; A buffer agent-lsp does not manage: its mirror tells the server now.
          (agent-lsp-mirror-sync))
        (puthash buffer (cons dirty-before (buffer-chars-modified-tick buffer)) agent-lsp-edits--touched)))
    result))

(defun agent-lsp-edits--only-agent-changes-p (buffer)
  "Whether BUFFER differs from its file only by the agent's edits."
  (let ((info (gethash buffer agent-lsp-edits--touched)))
    (and info (not (car info)) (= (cdr info) (buffer-chars-modified-tick buffer)))))

(defun agent-lsp-edits--save (uri)
  "Save the buffer visiting URI if only the agent changed it.
Return URI if it is saved."
  (let ((buffer (find-buffer-visiting (eglot--uri-to-path uri))))
    (cond ((null buffer) nil)
          ((not (buffer-modified-p buffer)) uri)
          ((agent-lsp-edits--only-agent-changes-p buffer)
           (with-current-buffer buffer
             ;; No before-save-hook: a formatter would change the text the server just checked.
             (let ((before-save-hook nil))
               (save-buffer)))
           (remhash buffer agent-lsp-edits--touched)
           (and (not (buffer-modified-p buffer)) uri))
          (t (message "agent-lsp: %s also has unsaved changes of yours; not saved"
                      (buffer-name buffer))
             nil))))

(cl-defmethod eglot-handle-request
  ((_server agent-lsp-server) (_method (eql agent/saveDocuments)) &key uris &allow-other-keys)
  "Save the buffers the agent edited; answer with the URIs now saved."
  (list :saved (vconcat (delq nil (mapcar #'agent-lsp-edits--save (append uris nil))))))

(provide 'agent-lsp-edits)
;;; agent-lsp-edits.el ends here
