;;; agent-lsp-review.el --- Reviewing what an agent task changed  -*- lexical-binding: t; -*-

;; This file is part of agent-lsp (MIT licence).

;;; Commentary:

;; M-x agent-lsp-review shows what the active task changed that nobody
;; has kept or rejected yet, as a `diff-mode' buffer (one hunk per
;; change, no context).  On a hunk: k keeps it, r rejects it (the text
;; before the agent's change goes back into the file); K and R do the
;; same for the hunk's whole file, u undoes the last reject, g lists
;; again.  The server writes rejected text through the editor (your
;; buffers follow) and saves it.

;;; Code:

(require 'cl-lib)
(require 'diff-mode)
(require 'eglot)
(require 'jsonrpc)
(require 'subr-x)

(declare-function agent-lsp--active "agent-lsp")
(declare-function agent-lsp--request "agent-lsp")

(defvar-local agent-lsp-review--task nil "The task id this review buffer shows.")
(defvar-local agent-lsp-review--server nil "The connection this review buffer talks to.")

(defvar agent-lsp-review-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "k") #'agent-lsp-review-keep)
    (define-key map (kbd "r") #'agent-lsp-review-reject)
    (define-key map (kbd "K") #'agent-lsp-review-keep-file)
    (define-key map (kbd "R") #'agent-lsp-review-reject-file)
    (define-key map (kbd "u") #'agent-lsp-review-undo)
    (define-key map (kbd "g") #'agent-lsp-review-refresh)
    map)
  "Keys of `agent-lsp-review-mode'.")

(define-derived-mode agent-lsp-review-mode diff-mode "Agent-Review"
  "The unreviewed changes of an agent task.
\\{agent-lsp-review-mode-map}"
  (setq buffer-read-only t))

(defun agent-lsp-review--lines (text)
  "TEXT as a list of lines without their newlines."
  (if (string-empty-p text) nil (split-string (string-remove-suffix "\n" text) "\n")))

(defun agent-lsp-review--insert (files)
  "Insert FILES (agent/reviewChanges) as a unified diff with hunk properties."
  (seq-doseq (file files)
    (let* ((uri (plist-get file :uri))
           (path (file-relative-name (eglot--uri-to-path uri)))
           (status (plist-get file :status))
           (delta 0))
      (insert (format "--- %s\n+++ %s\n"
                      (if (equal status "created") "/dev/null" (concat "a/" path))
                      (if (equal status "deleted") "/dev/null" (concat "b/" path))))
      (seq-doseq (hunk (plist-get file :hunks))
        (let* ((old (agent-lsp-review--lines (plist-get hunk :oldText)))
               (new (agent-lsp-review--lines (plist-get hunk :newText)))
               (new-start (plist-get (plist-get (plist-get hunk :range) :start) :line))
               (old-start (- new-start delta))
               (start (point)))
          (setq delta (+ delta (- (length new) (length old))))
          (insert (format "@@ -%d,%d +%d,%d @@%s\n"
                          (if old (1+ old-start) old-start) (length old)
                          (if new (1+ new-start) new-start) (length new)
                          (if (eq (plist-get hunk :userEdited) t) " (with your typing)" "")))
          (dolist (line old) (insert "-" line "\n"))
          (dolist (line new) (insert "+" line "\n"))
          (add-text-properties start (point) (list 'agent-lsp-hunk (plist-get hunk :hunkId)
                                                   'agent-lsp-uri uri)))))))

(defun agent-lsp-review--show (task-id server files)
  "Show FILES of TASK-ID (from SERVER) in the review buffer."
  (let ((buffer (get-buffer-create "*agent-lsp review*")))
    (with-current-buffer buffer
      (let ((inhibit-read-only t)
            (line (line-number-at-pos)))
        (erase-buffer)
        (unless (eq major-mode 'agent-lsp-review-mode) (agent-lsp-review-mode))
        (setq agent-lsp-review--task task-id
              agent-lsp-review--server server)
        (if (seq-empty-p files)
            (insert (format "# Task %s: nothing left to review.\n" task-id))
          (agent-lsp-review--insert files))
        (goto-char (point-min))
        (forward-line (1- line))))
    buffer))

;;;###autoload
(defun agent-lsp-review ()
  "Show the active task's unreviewed changes in a `diff-mode' buffer."
  (interactive)
  (pcase-let ((`(,task-id . ,server) (agent-lsp--active t)))
    (agent-lsp--request server :agent/reviewChanges (list :taskId task-id)
                        (lambda (result)
                          (pop-to-buffer (agent-lsp-review--show task-id server (plist-get result :files)))))))

(defun agent-lsp-review-refresh ()
  "List this review's changes again."
  (interactive)
  (let ((task-id agent-lsp-review--task)
        (server agent-lsp-review--server))
    (agent-lsp--request server :agent/reviewChanges (list :taskId task-id)
                        (lambda (result) (agent-lsp-review--show task-id server (plist-get result :files))))))

(defun agent-lsp-review--decide (decision)
  "Send DECISION for this review's task, report, and list again."
  (let ((task-id agent-lsp-review--task)
        (server agent-lsp-review--server))
    (agent-lsp--request
     server :agent/reviewDecide (list :taskId task-id :decisions (vector decision))
     (lambda (r)
       (message "agent-lsp: kept %s, rejected %s%s%s" (plist-get r :kept) (plist-get r :rejected)
                (mapconcat (lambda (f) (concat "; not done: " (plist-get f :reason))) (plist-get r :failed) "")
                (mapconcat (lambda (uri) (format "; your typing in %s went too (u undoes)" (eglot--uri-to-path uri)))
                           (plist-get r :droppedUserEdits) ""))
       (with-current-buffer "*agent-lsp review*" (agent-lsp-review-refresh))))))

(defun agent-lsp-review--at-point (property)
  "PROPERTY of the hunk at point, or a user error."
  (or (get-text-property (point) property)
      (user-error "No change at point (move to a hunk)")))

(defun agent-lsp-review-keep ()
  "Keep the change at point."
  (interactive)
  (agent-lsp-review--decide (list :hunkId (agent-lsp-review--at-point 'agent-lsp-hunk) :action "keep")))

(defun agent-lsp-review-reject ()
  "Reject the change at point: the text before it goes back into the file."
  (interactive)
  (agent-lsp-review--decide (list :hunkId (agent-lsp-review--at-point 'agent-lsp-hunk) :action "reject")))

(defun agent-lsp-review-keep-file ()
  "Keep every change of the file at point."
  (interactive)
  (agent-lsp-review--decide (list :uri (agent-lsp-review--at-point 'agent-lsp-uri) :action "keep")))

(defun agent-lsp-review-reject-file ()
  "Reject every change of the file at point."
  (interactive)
  (agent-lsp-review--decide (list :uri (agent-lsp-review--at-point 'agent-lsp-uri) :action "reject")))

(defun agent-lsp-review-undo ()
  "Write back what the last reject removed."
  (interactive)
  (let ((task-id agent-lsp-review--task))
    (agent-lsp--request agent-lsp-review--server :workspace/executeCommand
                        (list :command "agent.review.undoReject" :arguments (vector task-id))
                        (lambda (r)
                          (message "agent-lsp: undo reject: %d file(s) restored" (length (plist-get r :restored)))
                          (with-current-buffer "*agent-lsp review*" (agent-lsp-review-refresh))))))

(provide 'agent-lsp-review)
;;; agent-lsp-review.el ends here
