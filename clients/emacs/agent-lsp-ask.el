;;; agent-lsp-ask.el --- Approvals and questions for agent-lsp  -*- lexical-binding: t; -*-

;; This file is part of agent-lsp (MIT licence).

;;; Commentary:

;; The server asks with `agent/requestApproval' and `agent/askFollowup';
;; agent-lsp.el answers both with {deferred: true} at once and calls the
;; functions here from a timer.  They show what is asked (the diff, the
;; command, the whole question) in a window, redisplay so it is on screen,
;; then ask with `completing-read' and send the answer as `agent/respond'.
;; Quitting (C-g) rejects: no answer is never consent.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'diff-mode)

(declare-function agent-lsp--request "agent-lsp")

(defconst agent-lsp-ask--buffer "*agent-lsp approval*"
  "The buffer showing what an approval or question is about.")

(defun agent-lsp-ask--show (render)
  "Fill the preview buffer with RENDER (called in it).
Show it without selecting it."
  (let ((buffer (get-buffer-create agent-lsp-ask--buffer)))
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (erase-buffer)
        (funcall render)
        (goto-char (point-min)))
      (setq buffer-read-only t))
    (display-buffer buffer '((display-buffer-reuse-window display-buffer-below-selected)
                             (window-height . fit-window-to-buffer)
                             (inhibit-same-window . t)))
    ;; The window must be on screen before completing-read takes over the minibuffer.
    (redisplay t)
    buffer))

(defun agent-lsp-ask--hide ()
  "Close the preview window once the answer is given."
  (when-let ((buffer (get-buffer agent-lsp-ask--buffer)))
    (dolist (window (get-buffer-window-list buffer nil t))
      (when (window-live-p window) (quit-window nil window)))))

(defun agent-lsp-ask--render-approval (params)
  "Insert the approval PARAMS: title, detail, then the diff or the command."
  (insert (format "%s\n" (plist-get params :title)))
  (when-let ((detail (plist-get params :detail)))
    (unless (string-empty-p detail) (insert (format "%s\n" detail))))
  (insert "\n")
  (cond ((plist-get params :diff)
         (insert (plist-get params :diff))
         (diff-mode))
        ((plist-get params :command)
         (insert "$ " (plist-get params :command) "\n"))
        ((plist-get params :proposedText)
         (insert (plist-get params :proposedText)))))

(defun agent-lsp-ask--choose (prompt labels)
  "Ask for one of LABELS with PROMPT; nil when the user quits or gives nothing."
  (let ((label (condition-case nil
                   (completing-read prompt labels nil t)
                 (quit nil))))
    (and label (member label labels) label)))

(defun agent-lsp--ask-approval (server params)
  "Show the approval PARAMS from SERVER, ask, and send the answer."
  (let* ((options (append (plist-get params :options) nil))
         (labels (mapcar (lambda (o) (plist-get o :label)) options))
         (reject (cl-find-if (lambda (o) (string-prefix-p "reject" (plist-get o :kind))) options)))
    (agent-lsp-ask--show (lambda () (agent-lsp-ask--render-approval params)))
    (let* ((label (unwind-protect
                      (agent-lsp-ask--choose (format "agent: %s? " (plist-get params :title)) labels)
                    (agent-lsp-ask--hide)))
           (option (or (cl-find label options :key (lambda (o) (plist-get o :label)) :test #'equal)
                       reject))
           (feedback (when (and label (string-prefix-p "reject" (plist-get option :kind)))
                       (condition-case nil
                           (read-string "Tell the agent why (optional): ")
                         (quit nil)))))
      (agent-lsp--request server :agent/respond
                          `(:requestId ,(plist-get params :requestId)
                            :optionId ,(plist-get option :optionId)
                            ,@(when (and feedback (not (string-empty-p feedback)))
                                (list :feedback feedback)))))))

(defun agent-lsp--ask-question (server params)
  "Show the question PARAMS from SERVER whole, ask, send the answer.
The answer is a suggestion or any text."
  (let ((suggestions (mapcar (lambda (s) (plist-get s :text))
                             (append (plist-get params :suggestions) nil))))
    (agent-lsp-ask--show
     (lambda ()
       (insert (plist-get params :question) "\n")
       (when suggestions
         (insert "\nSuggestions:\n" (mapconcat (lambda (s) (concat "  - " s)) suggestions "\n") "\n"))))
    (let ((answer (unwind-protect
                      (condition-case nil
                          (completing-read "Answer the agent: " suggestions)
                        (quit nil))
                    (agent-lsp-ask--hide))))
      (if (or (null answer) (string-empty-p answer))
          (message "agent-lsp: not answered; answer later with M-x agent-lsp-send")
        (agent-lsp--request server :agent/respond
                            (list :requestId (plist-get params :requestId) :answer answer))))))

(provide 'agent-lsp-ask)
;;; agent-lsp-ask.el ends here
