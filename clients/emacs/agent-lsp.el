;;; agent-lsp.el --- An AI coding agent in Emacs, through eglot  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1") (eglot "1.9"))
;; Keywords: tools, languages
;; This file is part of agent-lsp (MIT licence).

;;; Commentary:

;; agent-lsp is a language server that runs a coding agent.  This package
;; connects to it through eglot and adds what plain LSP lacks:
;;
;;   M-x agent-lsp-new-task   start a task (the region goes along as context)
;;   M-x agent-lsp-send       answer the agent or continue a finished task
;;   M-x agent-lsp-cancel     cancel the active task
;;   M-x agent-lsp-set-mode   choose the mode of the next task
;;   M-x agent-lsp-show-transcript
;;
;; Approvals and questions show the diff (or the command, or the whole
;; question) in a window first, then ask with `completing-read'.  Every
;; request is asynchronous (`jsonrpc-async-request'): Emacs stays
;; responsive while the model works.  Nothing else is needed than
;;
;;   (add-to-list 'load-path "/path/to/agent-lsp/clients/emacs")
;;   (require 'agent-lsp)
;;
;; `agent-lsp-new-task' starts the connection itself when the buffer has
;; none.  Eglot runs one server per major mode, so in that buffer's mode
;; agent-lsp is the server (see the README for lsp-mode as an add-on).

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'eglot)
(require 'jsonrpc)
(require 'diff-mode)

;; A plain (load "/path/to/clients/emacs/agent-lsp.el") must find the other
;; files of the package, which sit beside this one.
(eval-and-compile
  (let ((here (or load-file-name (bound-and-true-p byte-compile-current-file))))
    (when (and here (not (locate-library "agent-lsp-server")))
      (add-to-list 'load-path (file-name-directory here)))))

(require 'agent-lsp-server)
(require 'agent-lsp-transcript)

(defgroup agent-lsp nil
  "An AI coding agent as a language server."
  :group 'tools
  :prefix "agent-lsp-")

(defcustom agent-lsp-server-command '("agent-lsp" "--stdio")
  "The program and arguments that start the server (found on PATH)."
  :type '(repeat string))

(defcustom agent-lsp-initialization-options nil
  "Settings sent as `initializationOptions'.
For example (:agent (:modes (:default \"code\"))).
This is the trusted source for keys a cloned repository must not set."
  :type 'sexp)

(defcustom agent-lsp-confirm-edits nil
  "Whether eglot asks again before applying an edit you approved in the diff."
  :type 'boolean)

(defcustom agent-lsp-show-transcript t
  "Whether a new task's transcript is shown in a window (without selecting it)."
  :type 'boolean)

(defvar agent-lsp--tasks (make-hash-table :test 'equal)
  "Task id -> plist (:server :title :status).")

(defvar agent-lsp--active-task nil
  "The task `agent-lsp-send' and `agent-lsp-cancel' act on.
The last one started or updated.")

;;;; Connection

(defun agent-lsp-eglot-contact ()
  "The (CLASS . CONTACT) entry for `eglot-server-programs'."
  `(agent-lsp-server . (,@agent-lsp-server-command
                        ,@(when agent-lsp-initialization-options
                            (list :initializationOptions agent-lsp-initialization-options)))))

(defconst agent-lsp--experimental
  '((agent . (:requestApproval t :askFollowup t :saveDocuments t
              :taskUpdates t :deferredAnswers t
              ;; agent/languageFeature: answered by the file's eglot server (agent-lsp-language.el).
              :languageFeature t))
    ;; agent/diagnostics: answered from Flymake (agent-lsp-diagnostics.el).
    (agentDiagnostics . t))
  "What this package adds to `capabilities.experimental'.")

(defun agent-lsp--with-experimental (theirs)
  "THEIRS, eglot's `:experimental' capabilities, plus this package's.
Eglot sends an empty hash table; a plist (another package's) is
extended; a hash table gets string keys, as JSON needs."
  (cond ((hash-table-p theirs)
         (let ((merged (copy-hash-table theirs)))
           (pcase-dolist (`(,key . ,value) agent-lsp--experimental)
             (puthash (symbol-name key) value merged))
           merged))
        (t (let ((merged (copy-sequence theirs)))
             (pcase-dolist (`(,key . ,value) agent-lsp--experimental)
               (setq merged (plist-put merged (intern (format ":%s" key)) value)))
             merged))))

(cl-defmethod eglot-client-capabilities ((_server agent-lsp-server))
  "Eglot's capabilities plus the agent/* requests this package handles."
  (let ((caps (copy-sequence (cl-call-next-method))))
    (plist-put caps :experimental (agent-lsp--with-experimental (plist-get caps :experimental)))))

(defun agent-lsp--servers ()
  "Live agent-lsp connections, the current buffer's first."
  (let ((current (ignore-errors (eglot-current-server)))
        (all (cl-loop for servers being the hash-values of eglot--servers-by-project
                      append (cl-remove-if-not (lambda (s) (cl-typep s 'agent-lsp-server)) servers))))
    (cl-remove-if-not #'jsonrpc-running-p
                      (if (cl-typep current 'agent-lsp-server) (cons current (delq current all)) all))))

(defun agent-lsp--server ()
  "The connection for a command here.
The buffer's, else the active task's, else any."
  (let ((task-server (plist-get (gethash agent-lsp--active-task agent-lsp--tasks)
                                :server))
        (servers (agent-lsp--servers)))
    (cond ((cl-typep (ignore-errors (eglot-current-server)) 'agent-lsp-server) (car servers))
          ((and task-server (jsonrpc-running-p task-server)) task-server)
          (t (car servers)))))

(defun agent-lsp--language-id ()
  "The LSP language id of this buffer, from its major mode's name."
  (replace-regexp-in-string "\\(-ts\\)?-mode\\'" "" (symbol-name major-mode)))

(defun agent-lsp--start ()
  "Start agent-lsp for this buffer's major mode and project, without questions."
  (let ((other (ignore-errors (eglot-current-server))))
    (when other
      (user-error "This buffer is managed by %s; eglot runs one server per major mode (see agent-lsp's README)"
                  (jsonrpc-name other))))
  (let* ((project (or (project-current) (cons 'transient default-directory)))
         (contact (cdr (agent-lsp-eglot-contact)))
         ;; Eglot 1.9 takes one language id; later versions a list of them (one per mode).
         (plural (memq 'language-ids (help-function-arglist 'eglot t)))
         (eglot-sync-connect nil))
    (eglot (list major-mode) project 'agent-lsp-server contact
           (if plural (list (agent-lsp--language-id)) (agent-lsp--language-id)))))

(defun agent-lsp--with-server (fn)
  "Call FN with an agent-lsp connection.
Start one here (asynchronously) if there is none."
  (if-let ((server (agent-lsp--server)))
      (funcall fn server)
    (let ((buffer (current-buffer)) hook)
      (setq hook (lambda (server)
                   (when (cl-typep server 'agent-lsp-server)
                     (remove-hook 'eglot-connect-hook hook)
                     (with-current-buffer (if (buffer-live-p buffer) buffer (current-buffer))
                       (funcall fn server)))))
      (add-hook 'eglot-connect-hook hook)
      (condition-case err
          (agent-lsp--start)
        (error (remove-hook 'eglot-connect-hook hook)
               (signal (car err) (cdr err))))
      (message "agent-lsp: starting %s..." (car agent-lsp-server-command)))))

(defun agent-lsp--request (server method params &optional on-result)
  "Send METHOD with PARAMS to SERVER without waiting.
Call ON-RESULT with the result."
  (jsonrpc-async-request
   server method params
   :success-fn (lambda (result) (when on-result (funcall on-result result)))
   :error-fn (lambda (err) (message "agent-lsp: %s failed: %s" method (plist-get err :message)))
   :timeout-fn (lambda () (message "agent-lsp: %s got no answer in time" method))))

;;;; Commands

(defun agent-lsp--region-context ()
  "The active region as an agent/newTask context list, or nil."
  (when (and (use-region-p) buffer-file-name)
    (let ((beg (region-beginning)) (end (region-end)))
      (vector (list :uri (eglot--path-to-uri buffer-file-name)
                    :range (list :start (eglot--pos-to-lsp-position beg)
                                 :end (eglot--pos-to-lsp-position end)))))))

(defun agent-lsp--task (task-id)
  "The record of TASK-ID, created when missing."
  (or (gethash task-id agent-lsp--tasks)
      (puthash task-id (list :title task-id) agent-lsp--tasks)))

;;;###autoload
(defun agent-lsp-new-task (text &optional context)
  "Start an agent task doing TEXT; CONTEXT is the region (interactively)."
  (interactive (list (read-string "Agent task: ") (agent-lsp--region-context)))
  (when (string-empty-p (string-trim text)) (user-error "The task text is empty"))
  (agent-lsp--with-server
   (lambda (server)
     (agent-lsp--request
      server :agent/newTask `(:text ,text ,@(when context (list :context context)))
      (lambda (result)
        (let* ((task-id (plist-get result :taskId))
               (task (agent-lsp--task task-id)))
          (puthash task-id (plist-put (plist-put task :server server) :title text) agent-lsp--tasks)
          (setq agent-lsp--active-task task-id)
          (agent-lsp-transcript-set-title task-id text)
          ;; The modes it starts in, for the header (updates only tell of later switches).
          (agent-lsp--request server :agent/getTask (list :taskId task-id)
                              (lambda (task)
                                (agent-lsp-transcript-set-modes task-id (plist-get task :mode)
                                                                (plist-get task :permissionMode))))
          (let ((buffer (agent-lsp-transcript-buffer task-id text)))
            (when agent-lsp-show-transcript
              ;; At the end, so the window follows the task as it grows.
              (when-let ((window (display-buffer buffer '(nil (inhibit-same-window . t)))))
                (set-window-point window (with-current-buffer buffer (point-max))))))
          (message "agent-lsp: task started (M-x agent-lsp-show-transcript)")))))))

(defun agent-lsp--active (server-too)
  "The active task id (and its server when SERVER-TOO), or a user error."
  (unless agent-lsp--active-task (user-error "No agent task yet: M-x agent-lsp-new-task"))
  (let ((server (or (plist-get (gethash agent-lsp--active-task agent-lsp--tasks) :server)
                    (agent-lsp--server))))
    (when (and server-too (not (and server (jsonrpc-running-p server))))
      (user-error "agent-lsp is not running"))
    (if server-too (cons agent-lsp--active-task server) agent-lsp--active-task)))

;;;###autoload
(defun agent-lsp-send (text)
  "Send TEXT to the active task: an answer, or what to do next after it finished."
  (interactive (list (read-string "Message to the agent: ")))
  (pcase-let ((`(,task-id . ,server) (agent-lsp--active t)))
    (agent-lsp-transcript-user task-id text)
    (agent-lsp--request server :agent/sendMessage (list :taskId task-id :text text))))

;;;###autoload
(defun agent-lsp-cancel ()
  "Cancel the active task."
  (interactive)
  (pcase-let ((`(,task-id . ,server) (agent-lsp--active t)))
    (agent-lsp--request server :agent/cancelTask (list :taskId task-id)
                        (lambda (_) (message "agent-lsp: cancelled")))))

;;;###autoload
(defun agent-lsp-set-mode (&optional mode)
  "Choose MODE for the next task (offers the server's modes)."
  (interactive)
  (agent-lsp--with-server
   (lambda (server)
     (let ((set (lambda (mode)
                  (agent-lsp--request server :agent/setMode (list :mode mode)
                                      (lambda (_) (message "agent-lsp: next task runs in %s mode" mode))))))
       (if mode (funcall set mode)
         (agent-lsp--request
          server :agent/listModes nil
          (lambda (result)
            (funcall set (completing-read
                          (format "Mode for the next task (now %s): " (plist-get result :defaultMode))
                          (mapcar (lambda (m) (plist-get m :slug)) (plist-get result :modes))
                          nil t)))))))))

;;;###autoload
(defun agent-lsp-set-permission-mode (&optional mode)
  "Set the permission MODE of new tasks (Claude Code's names; offers them)."
  (interactive)
  (let ((mode (or mode
                  (completing-read "Permission mode for new tasks: "
                                   '("default" "acceptEdits" "plan" "auto" "dontAsk" "bypassPermissions")
                                   nil t))))
    (agent-lsp--with-server
     (lambda (server)
       (agent-lsp--request server :agent/setPermissionMode (list :mode mode)
                           (lambda (result)
                             (let ((now (plist-get result :mode)))
                               (message "agent-lsp: new tasks run in permission mode %s%s" now
                                        (if (equal now "bypassPermissions")
                                            " (BYPASS: nothing but deny lists and protected paths asks)"
                                          "")))))))))

;;;###autoload
(defun agent-lsp-show-transcript ()
  "Show the active task's transcript."
  (interactive)
  (pop-to-buffer (agent-lsp-transcript-buffer (agent-lsp--active nil))))

;;;; Server notifications and requests

(cl-defmethod eglot-handle-notification
  ((server agent-lsp-server) (_method (eql agent/taskUpdate)) &key taskId update &allow-other-keys)
  "Follow the task in its transcript buffer."
  (let ((task (agent-lsp--task taskId)))
    (puthash taskId (plist-put task :server server) agent-lsp--tasks)
    (setq agent-lsp--active-task taskId)
    (agent-lsp-transcript-update taskId update)
    (let ((status (agent-lsp-transcript-status taskId)))
      (unless (equal status (plist-get task :status))
        (puthash taskId (plist-put task :status status) agent-lsp--tasks)
        (when (member status '("completed" "failed" "cancelled" "interrupted"))
          (message "agent-lsp: task %s" status))))))

(cl-defmethod eglot-handle-request
  ((server agent-lsp-server) (_method (eql agent/requestApproval)) &rest params)
  "Answer at once that the answer comes later, then ask in a timer.
Asking here would block the process filter."
  (run-at-time 0 nil #'agent-lsp--ask-approval server params)
  '(:deferred t))

(cl-defmethod eglot-handle-request
  ((server agent-lsp-server) (_method (eql agent/askFollowup)) &rest params)
  "Answer that the answer comes later, then ask."
  (run-at-time 0 nil #'agent-lsp--ask-question server params)
  '(:deferred t))

(require 'agent-lsp-ask)
(require 'agent-lsp-edits)
(require 'agent-lsp-diagnostics)
(require 'agent-lsp-language)
(require 'agent-lsp-review)

(provide 'agent-lsp)
;;; agent-lsp.el ends here
