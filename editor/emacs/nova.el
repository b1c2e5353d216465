;;; nova.el --- Project: Nova with Eglot: android scripts and rules files  -*- lexical-binding: t; -*-

;; Load it from your init file:  (load "/path/to/editor/emacs/nova.el")
;;
;; Needs Eglot: built into Emacs 29+; on Emacs 28, Debian's `elpa-eglot' (apt install elpa-eglot).
;; It starts `nova lsp' (which must be on `exec-path', or see `nova-server-command') for android
;; scripts (.ts) and rules files (rules.json, NAME.nova-rules.json), and tells Emacs where a Nova
;; project starts, so the server gets the project's folder, not `src/'.
;;
;; What you get: type errors and the Nova checks as Flymake diagnostics, hover docs with the
;; values of the project's rules in ElDoc, completion, quick fixes (`eglot-code-actions'), and
;; `M-x nova-dry-run': one turn of the script in the real sandbox; the verdict is shown in the
;; echo area and, for a turn that would fail, as a warning on `export default'.
;;
;; Settings go to the server as workspace configuration, e.g. in the project's .dir-locals.el:
;;   ((nil . ((eglot-workspace-configuration . (:nova (:gameFile "game.json"))))))

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'project)
(require 'js)

(defgroup nova nil
  "Project: Nova, the programming strategy game."
  :group 'tools)

(defcustom nova-server-command '("nova" "lsp")
  "How to start the Nova language server, e.g. (\"/path/to/.venv/bin/nova\" \"lsp\")."
  :type '(repeat string))

;;; Modes

(define-derived-mode nova-rules-mode js-mode "Nova rules"
  "A Nova rules file: JSON with comments and trailing commas."
  (setq-local comment-start "// ")
  (setq-local comment-end ""))

;; The same names the server and the VS Code extension take for rules files. Not *.rules.json:
;; Firebase's database.rules.json is not a Nova rules file.
(add-to-list 'auto-mode-alist '("\\(?:\\`\\|/\\)rules\\.jsonc?\\'" . nova-rules-mode))
(add-to-list 'auto-mode-alist '("\\.nova-rules\\.jsonc?\\'" . nova-rules-mode))

(define-derived-mode nova-typescript-mode js-mode "TypeScript"
  "TypeScript, for an Emacs with no TypeScript mode of its own (js-mode's editing and faces).")

;; Emacs 28 has no mode for .ts at all; a `typescript-mode' you installed is kept.
(unless (assoc-default "x.ts" auto-mode-alist #'string-match)
  (add-to-list 'auto-mode-alist '("\\.ts\\'" . nova-typescript-mode)))

;;; The server

(add-to-list 'eglot-server-programs
             `(((nova-typescript-mode :language-id "typescript")
                (typescript-mode :language-id "typescript")
                (typescript-ts-mode :language-id "typescript")
                (nova-rules-mode :language-id "jsonc"))
               . ,(lambda (&rest _) nova-server-command)))

(dolist (hook '(nova-typescript-mode-hook typescript-mode-hook typescript-ts-mode-hook nova-rules-mode-hook))
  (add-hook hook #'eglot-ensure))

;;; The project's root

(defun nova-project-find (dir)
  "The Nova project DIR is in: the nearest folder above it with a rules.json or a nova.d.ts.
`nova new-android' writes both at the project's top. Without this, a project that is not a
version-control checkout has no root, and Eglot takes the script's own folder (`src/')."
  (let ((root (locate-dominating-file
               dir (lambda (folder)
                     (or (file-exists-p (expand-file-name "rules.json" folder))
                         (file-exists-p (expand-file-name "nova.d.ts" folder)))))))
    (and root (cons 'nova (file-name-as-directory (expand-file-name root))))))

(cl-defmethod project-root ((project (head nova)))
  (cdr project))

(add-hook 'project-find-functions #'nova-project-find)

;;; Commands

(defun nova-dry-run ()
  "Dry-run this turn: the buffer as it is now, one turn in the real sandbox.
The server shows the verdict; a turn that would fail also becomes a warning on `export default'."
  (interactive)
  (eglot--signal-textDocument/didChange) ; edits not sent yet (Eglot waits for idle time) go first
  (eglot-execute-command (eglot--current-server-or-lose) 'nova.dryRun
                         (vector (eglot--TextDocumentIdentifier))))

(provide 'nova)
;;; nova.el ends here
