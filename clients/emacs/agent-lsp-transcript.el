;;; agent-lsp-transcript.el --- Transcript buffers for agent-lsp tasks  -*- lexical-binding: t; -*-

;; This file is part of agent-lsp (MIT licence).

;;; Commentary:

;; One buffer per task, appended to as `agent/taskUpdate' notifications
;; arrive: the model's streamed text, one line per tool call once it
;; settles, tool results, command output, todos and the completion
;; result.  The header line shows the task's status and mode.  Pure
;; presentation: no LSP here.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defvar-local agent-lsp-transcript--state nil
  "Per-buffer rendering state: a plist of :status :mode :calls :output :text.")

(defvar agent-lsp-transcript--status-words
  '(("awaitingApproval" . "awaiting approval") ("running" . "running")
    ("done" . "done") ("error" . "failed") ("denied" . "denied")
    ("skipped" . "skipped"))
  "How a tool call's status reads in the transcript.")

(defvar agent-lsp-transcript--key-params
  '(:path :command :regex :query :mode :mode_slug :question :server_name :uri)
  "The parameter that says most about a call, so a line reads \"read_file src/a.ts\".")

(define-derived-mode agent-lsp-transcript-mode special-mode "Agent"
  "Major mode of an agent-lsp task transcript (read-only, follows the task)."
  (setq-local truncate-lines nil)
  (setq-local header-line-format '(:eval (agent-lsp-transcript--header))))

(defun agent-lsp-transcript--header ()
  "The header line: task status, mode and permission mode."
  (let ((state agent-lsp-transcript--state))
    (format " agent: %s%s%s" (or (plist-get state :status) "starting")
            (if-let ((mode (plist-get state :mode))) (format " · %s" mode) "")
            (pcase (plist-get state :permission-mode)
              ('nil "")
              ("bypassPermissions" " · BYPASS permissions")
              (permission (format " · %s" permission))))))

(defun agent-lsp-transcript-set-modes (task-id mode permission-mode)
  "Show MODE and PERMISSION-MODE in TASK-ID's header (the modes it started in).
A switch reported since (an update) wins."
  (with-current-buffer (agent-lsp-transcript-buffer task-id)
    (let ((state agent-lsp-transcript--state))
      (unless (plist-get state :mode) (setq state (plist-put state :mode mode)))
      (unless (plist-get state :permission-mode) (setq state (plist-put state :permission-mode permission-mode)))
      (setq agent-lsp-transcript--state state))
    (force-mode-line-update t)))

(defun agent-lsp-transcript-buffer (task-id &optional title)
  "The transcript buffer of TASK-ID, created (headed with TITLE) when missing."
  (let ((name (format "*agent-lsp %s*" task-id)))
    (or (get-buffer name)
        (with-current-buffer (get-buffer-create name)
          (agent-lsp-transcript-mode)
          (setq agent-lsp-transcript--state (list :calls (make-hash-table :test 'equal)))
          (agent-lsp-transcript--insert
           (format "# %s\n\n" (agent-lsp-transcript--one-line (or title task-id) 120)))
          (current-buffer)))))

(defun agent-lsp-transcript-set-title (task-id title)
  "Put TITLE at the top of TASK-ID's transcript.
Its updates may have come before its title."
  (with-current-buffer (agent-lsp-transcript-buffer task-id title)
    (save-excursion
      (goto-char (point-min))
      (when (looking-at "# .*$")
        (let ((inhibit-read-only t))
          (replace-match (format "# %s" (agent-lsp-transcript--one-line title 120)) t t))))))

(defun agent-lsp-transcript--one-line (text max)
  "TEXT on one line, cut to MAX characters."
  (let ((s (replace-regexp-in-string "[ \t\n\r]+" " " (format "%s" text))))
    (if (> (length s) max) (concat (substring s 0 (1- max)) "…") s)))

(defun agent-lsp-transcript--insert (text)
  "Append TEXT at the end, keeping windows that were at the end following it."
  (let ((inhibit-read-only t)
        (following (cl-remove-if-not (lambda (w) (= (window-point w) (point-max)))
                                     (get-buffer-window-list (current-buffer) nil t))))
    (save-excursion (goto-char (point-max)) (insert text))
    ;; A view, not a file: never offer to save it.
    (set-buffer-modified-p nil)
    (dolist (w following) (set-window-point w (point-max)))))

(defun agent-lsp-transcript--block (text)
  "Append TEXT as a block of its own.
Closes open command output and starts on a fresh line."
  (let ((prefix ""))
    (when (plist-get agent-lsp-transcript--state :output)
      (setq prefix (concat (if (agent-lsp-transcript--at-line-start) "" "\n") "```\n"))
      (setq agent-lsp-transcript--state (plist-put agent-lsp-transcript--state :output nil)))
    (when (and (string-empty-p prefix) (not (agent-lsp-transcript--at-line-start)))
      (setq prefix "\n"))
    (when (plist-get agent-lsp-transcript--state :text)
      (setq prefix (concat prefix "\n"))
      (setq agent-lsp-transcript--state (plist-put agent-lsp-transcript--state :text nil)))
    (agent-lsp-transcript--insert (concat prefix text "\n"))))

(defun agent-lsp-transcript--at-line-start ()
  "Whether the buffer ends at the start of a line."
  (or (= (point-min) (point-max)) (eq (char-before (point-max)) ?\n)))

(defun agent-lsp-transcript--params-summary (params)
  "A short text for PARAMS (a plist): its most telling parameter."
  (or (cl-loop for key in agent-lsp-transcript--key-params
               for value = (plist-get params key)
               when (and (stringp value) (not (string-empty-p value)))
               return (agent-lsp-transcript--one-line value 80))
      ""))

(defun agent-lsp-transcript-user (task-id text)
  "Show TEXT the user sent to TASK-ID as a quote."
  (with-current-buffer (agent-lsp-transcript-buffer task-id)
    (agent-lsp-transcript--block
     (concat "\n" (mapconcat (lambda (l) (concat "> " l)) (split-string text "\n") "\n") "\n"))))

(defun agent-lsp-transcript-status (task-id)
  "The last status TASK-ID's transcript showed, or nil."
  (when-let ((buffer (get-buffer (format "*agent-lsp %s*" task-id))))
    (plist-get (buffer-local-value 'agent-lsp-transcript--state buffer) :status)))

(defun agent-lsp-transcript-update (task-id update)
  "Render UPDATE (the plist of an `agent/taskUpdate') into TASK-ID's transcript."
  (with-current-buffer (agent-lsp-transcript-buffer task-id)
    (let ((kind (plist-get update :kind))
          (state agent-lsp-transcript--state))
      (pcase kind
        ("text"
         (let ((delta (plist-get update :delta)))
           (when (plist-get state :output) (agent-lsp-transcript--block ""))
           ;; A new model reply after one that ended with text starts a new paragraph
           ;; ("done" then "done" must not read "donedone").
           (when (and (plist-get agent-lsp-transcript--state :turn-ended)
                      (plist-get agent-lsp-transcript--state :text)
                      (not (string-empty-p delta)))
             (agent-lsp-transcript--insert (if (agent-lsp-transcript--at-line-start) "\n" "\n\n")))
           ;; Text after a block (a tool line, a result) starts a paragraph of its own.
           (when (and (not (plist-get agent-lsp-transcript--state :text))
                      (not (string-empty-p delta))
                      (not (string-suffix-p "\n\n" (buffer-substring-no-properties
                                                    (max (point-min) (- (point-max) 2)) (point-max)))))
             (agent-lsp-transcript--insert (if (agent-lsp-transcript--at-line-start) "\n" "\n\n")))
           (unless (string-empty-p delta)
             (setq agent-lsp-transcript--state (plist-put agent-lsp-transcript--state :turn-ended nil)))
           (setq agent-lsp-transcript--state (plist-put agent-lsp-transcript--state :text t))
           (agent-lsp-transcript--insert delta)))
        ;; Not shown, but it marks the end of one model reply.
        ("usage" (setq agent-lsp-transcript--state (plist-put state :turn-ended t)))
        ("toolCall" (agent-lsp-transcript--tool-call update))
        ("toolResult"
         (let ((lines (split-string (plist-get update :summary) "\n")))
           (agent-lsp-transcript--block
            (concat "  " (if (eq (plist-get update :isError) t) "✗ " "✓ ") (car lines)
                    (mapconcat (lambda (l) (concat "\n    " l)) (cdr lines) "")))))
        ("commandOutput"
         (unless (equal (plist-get state :output) (plist-get update :callId))
           (agent-lsp-transcript--block "```")
           (setq agent-lsp-transcript--state
                 (plist-put agent-lsp-transcript--state :output (plist-get update :callId))))
         (agent-lsp-transcript--insert (plist-get update :chunk)))
        ("todos"
         (agent-lsp-transcript--block
          (concat "**Todos**"
                  (mapconcat (lambda (todo)
                               (format "\n- %s %s"
                                       (pcase (plist-get todo :status)
                                         ("completed" "[x]") ("in_progress" "[-]") (_ "[ ]"))
                                       (plist-get todo :text)))
                             (plist-get update :todos) ""))))
        ("mode"
         (setq agent-lsp-transcript--state (plist-put state :mode (plist-get update :mode)))
         (agent-lsp-transcript--block (format "_mode: %s_" (plist-get update :mode))))
        ("permissionMode"
         (let ((permission (plist-get update :mode)))
           (setq agent-lsp-transcript--state (plist-put state :permission-mode permission))
           (agent-lsp-transcript--block
            (format "_permission mode: %s%s_" permission
                    (if (equal permission "bypassPermissions")
                        " (nothing but deny lists and protected paths asks)" "")))
           (force-mode-line-update t)))
        ("status"
         (let ((status (plist-get update :status)))
           (setq agent-lsp-transcript--state (plist-put state :status status))
           (unless (member status '("running" "completed"))
             (agent-lsp-transcript--block
              (format "_status: %s%s_" status
                      (if-let ((m (plist-get update :message)))
                          (concat " — " (agent-lsp-transcript--one-line m 200)) ""))))
           (force-mode-line-update t)))
        ("subtask" (agent-lsp-transcript--block (format "_subtask started: %s_" (plist-get update :childTaskId))))
        ("checkpoint" (agent-lsp-transcript--block (format "_checkpoint %s: %s_" (plist-get update :checkpointId) (plist-get update :label))))
        ("completed"
         (setq agent-lsp-transcript--state (plist-put state :status "completed"))
         (agent-lsp-transcript--block (format "\n## Completed\n\n%s" (plist-get update :result)))
         (force-mode-line-update t))
        ("error" (agent-lsp-transcript--block (format "**Error:** %s" (plist-get update :message))))))))

(defun agent-lsp-transcript--tool-call (update)
  "Show a tool call once it settles, and again only if it was refused or failed."
  (let* ((calls (plist-get agent-lsp-transcript--state :calls))
         (id (plist-get update :callId))
         (status (plist-get update :status))
         (seen (gethash id calls)))
    (unless (or (equal status "streaming") (equal seen status))
      (puthash id status calls)
      (when (or (null seen) (member status '("denied" "skipped" "error")))
        (let* ((tool (plist-get update :tool))
               (summary (if (equal tool "attempt_completion") ""
                          (agent-lsp-transcript--params-summary (plist-get update :params)))))
          (agent-lsp-transcript--block
           (format "- **%s**%s — %s" tool
                   (if (string-empty-p summary) "" (format " `%s`" summary))
                   (or (cdr (assoc status agent-lsp-transcript--status-words)) status))))))))

(provide 'agent-lsp-transcript)
;;; agent-lsp-transcript.el ends here
