-- Project: Nova for Neovim 0.11+ (vim.lsp.config / vim.lsp.enable).
--
-- Put this file on your runtimepath (e.g. ~/.config/nvim/plugin/nova.lua) or source it from
-- init.lua. It starts `nova lsp` for android scripts (.ts) and rules files (rules.json,
-- NAME.nova-rules.json, or JSON whose "$schema" names rules.schema.json; the server ignores other
-- JSON). The server pushes diagnostics to Neovim, so a dry-run's verdict shows up as a warning.

vim.lsp.config('nova', {
  -- A virtualenv's nova works too: { '/path/to/.venv/bin/nova', 'lsp' }
  cmd = { 'nova', 'lsp' },
  filetypes = { 'typescript', 'json', 'jsonc' },
  -- `nova new-android` puts tsconfig.json and rules.json at the project's top.
  root_markers = { 'tsconfig.json', 'rules.json', '.git' },
  -- Read with workspace/configuration (section "nova"); relative paths are taken from the root.
  settings = {
    nova = {
      -- rulesFile = 'rules.json',   -- whose values hover shows (default: the game's rules, else rules.json, else the shipped defaults)
      -- gameFile = 'game.json',     -- dry-run against this game's current state (default: a fresh default world)
      -- androidId = 'android-1',    -- the android a dry-run plays as (default: the first active one)
    },
    -- nova lsp is the only server an android project needs: go to definition, references, rename,
    -- symbols, formatting, signature help, semantic tokens, inlay hints... come from its warm
    -- TypeScript checker, which reads these settings (TypeScript's own names), e.g.:
    -- typescript = {
    --   inlayHints = { parameterNames = { enabled = 'all' }, variableTypes = { enabled = true } },
    --   referencesCodeLens = { enabled = true },
    -- },
    -- (and show the hints with vim.lsp.inlay_hint.enable(true))
  },
})
vim.lsp.enable('nova')

-- :NovaDryRun runs one turn of the current buffer in the sandbox. The server shows the verdict
-- (window/showMessage) and, for a turn that would fail, a warning on `export default`.
vim.api.nvim_create_user_command('NovaDryRun', function()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = vim.lsp.get_clients({ bufnr = bufnr, name = 'nova' })[1]
  if not client then
    vim.notify('nova lsp is not attached to this buffer', vim.log.levels.WARN)
    return
  end
  client:request('workspace/executeCommand', {
    command = 'nova.dryRun',
    arguments = { vim.uri_from_bufnr(bufnr) },
  }, function(err)
    if err then
      vim.notify('Dry-run: ' .. err.message, vim.log.levels.ERROR)
    end
  end, bufnr)
end, { desc = 'Nova: dry-run this turn' })

-- The dry-run is also offered as a code lens on `export default`; Neovim shows lenses once
-- refreshed (run the one under the cursor with vim.lsp.codelens.run()).
vim.api.nvim_create_autocmd('LspAttach', {
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if not client or client.name ~= 'nova' or vim.bo[args.buf].filetype ~= 'typescript' then
      return
    end
    vim.lsp.codelens.refresh({ bufnr = args.buf })
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
      buffer = args.buf,
      callback = function() vim.lsp.codelens.refresh({ bufnr = args.buf }) end,
    })
    vim.keymap.set('n', '<leader>nd', vim.lsp.codelens.run, { buffer = args.buf, desc = 'Nova: run the code lens (dry-run)' })
  end,
})
