;;; emacs_session.el --- Emacs + Eglot + editor/emacs/nova.el on a `nova new-android' project  -*- lexical-binding: t; -*-

;; Run as: emacs --batch -l editor/emacs/nova.el -l tests/editors/emacs_session.el
;; (batch mode reads no init file, so loading nova.el first is what an init file's `load' does).
;; Reads the plan (JSON, file named by $NOVA_EMACS_PLAN): {script, rules_file, refused_script, out}.
;; Writes {ok, error?, steps} to plan.out. Every wait is bounded and names what it waited for.

(require 'json)
(require 'flymake)

(defvar nova-session-wait 20 "Seconds a step may take.")
(defvar nova-session-steps nil)

(defun nova-session-step (name value)
  (push (cons name value) nova-session-steps))

(defun nova-session-wait-for (what condition)
  "Wait for CONDITION, running Flymake as its idle timer would in an interactive Emacs (once a
second; batch Emacs is never idle), and letting Eglot report what the server pushes between."
  (let ((deadline (+ (float-time) nova-session-wait))
        (next-check 0))
    (while (not (funcall condition))
      (when (> (float-time) deadline)
        (error "timed out after %s s waiting for %s" nova-session-wait what))
      (when (and (bound-and-true-p flymake-mode) (> (float-time) next-check))
        (flymake-start)
        (setq next-check (+ (float-time) 1.0)))
      (accept-process-output nil 0.02))))

(defun nova-session-open (file)
  "Visit FILE as a person does: the command, then the command loop's post-command-hook."
  (find-file file)
  (run-hooks 'post-command-hook))

(defun nova-session-diagnostics (&optional predicate)
  (cl-remove-if-not (or predicate #'identity) (flymake-diagnostics)))

(defun nova-session-describe (diagnostic)
  (save-excursion
    (goto-char (flymake-diagnostic-beg diagnostic))
    (list (cons 'line (1- (line-number-at-pos)))
          (cons 'col (current-column))
          (cons 'type (symbol-name (flymake-diagnostic-type diagnostic)))
          (cons 'text (flymake-diagnostic-text diagnostic)))))

(defun nova-session-dry-run-warning ()
  (car (nova-session-diagnostics
        (lambda (d) (string-match-p "Dry-run:" (flymake-diagnostic-text d))))))

(defun nova-session (plan)
  ;; 1. The script opens; Eglot starts nova lsp with the project's folder as the root.
  (nova-session-open (alist-get 'script plan))
  (nova-session-wait-for "eglot to manage the script" (lambda () (bound-and-true-p eglot--managed-mode)))
  (let ((server (eglot-current-server)))
    (nova-session-step 'root (project-root (eglot--project server)))
    (nova-session-step 'server (car (process-command (jsonrpc--process server)))))
  (nova-session-step 'mode (symbol-name major-mode))

  ;; 2. tsc's type error, where it is.
  (nova-session-wait-for "the type error on direction"
                         (lambda () (nova-session-diagnostics (lambda (d) (string-match-p "Direction" (flymake-diagnostic-text d))))))
  (nova-session-step 'type_error (nova-session-describe
                                  (car (nova-session-diagnostics (lambda (d) (string-match-p "Direction" (flymake-diagnostic-text d)))))))

  ;; 3. Hover (what ElDoc shows) on a rule.
  (goto-char (point-min))
  (search-forward "cargoCapacity")
  (backward-char 3)
  (let (hover)
    (eglot-hover-eldoc-function (lambda (info &rest _) (setq hover (or info ""))))
    (nova-session-wait-for "the hover docs" (lambda () hover))
    (nova-session-step 'hover (substring-no-properties hover)))

  ;; 4. An edit that fixes the type error, then M-x nova-dry-run: a warning on `export default'.
  (erase-buffer)
  (insert (alist-get 'refused_script plan))
  (run-hooks 'post-command-hook)
  ;; Eglot sends the edit when Emacs has been idle a moment; batch Emacs is never idle.
  (eglot--signal-textDocument/didChange)
  (nova-session-wait-for "the type error to go away after the edit"
                         (lambda () (null (nova-session-diagnostics (lambda (d) (memq (flymake-diagnostic-type d) '(:error eglot-error)))))))
  (nova-dry-run)
  (nova-session-wait-for "the dry-run warning on export default" #'nova-session-dry-run-warning)
  (nova-session-step 'dry_run_warning (nova-session-describe (nova-session-dry-run-warning)))

  ;; 5. A rules file with a partial leaf: flagged at its key.
  (nova-session-open (alist-get 'rules_file plan))
  (nova-session-step 'rules_mode (symbol-name major-mode))
  (nova-session-wait-for "eglot to manage the rules file" (lambda () (bound-and-true-p eglot--managed-mode)))
  (nova-session-wait-for "the rules file diagnostic" (lambda () (nova-session-diagnostics)))
  (nova-session-step 'rules_diagnostic (nova-session-describe (car (nova-session-diagnostics))))
  (nova-session-step 'rules_root (project-root (eglot--project (eglot-current-server)))))

(let* ((plan (json-read-file (getenv "NOVA_EMACS_PLAN")))
       (result
        (condition-case err
            (progn (nova-session plan) '((ok . t)))
          (t `((ok . :json-false) (error . ,(error-message-string err))
                   (messages . ,(concat (with-current-buffer "*Messages*" (buffer-string))
                                        "\nflymake: " (format "%S" (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))
                                        "\neglot: " (format "%S" (and (boundp 'eglot--diagnostics) (mapcar #'flymake-diagnostic-text eglot--diagnostics)))
                                        "\nevents: " (let ((server (eglot-current-server)))
                                                       (if server (with-current-buffer (jsonrpc-events-buffer server)
                                                                    (buffer-substring (max (point-min) (- (point-max) 6000)) (point-max)))
                                                         "no server")))))))))
  (with-temp-file (alist-get 'out plan)
    (insert (json-encode (append result `((steps . ,nova-session-steps))))))
  (ignore-errors (eglot-shutdown-all))
  (kill-emacs (if (eq (alist-get 'ok result) t) 0 1)))
