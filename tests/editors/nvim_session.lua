-- A Neovim session with editor/nvim/nova.lua installed as docs/editors.md says (on the
-- runtimepath as plugin/nova.lua, `nova` on PATH), played headless on a `nova new-android`
-- project: what a player sees, and how long each thing takes as Neovim sees it.
--
-- Reads the plan (a JSON file named by $NOVA_NVIM_PLAN): {project, script, rules_file, out}.
-- Writes {ok, error?, steps: {...}, latency_ms: {...}} to plan.out, then quits. Every wait is
-- bounded: a step that does not happen in time ends the session with an error naming it.

local plan = vim.json.decode(table.concat(vim.fn.readfile(vim.env.NOVA_NVIM_PLAN), '\n'))
local WAIT_MS = 20000
local steps, latency = {}, {}

local function now_ms() return vim.uv.hrtime() / 1e6 end

local function wait_for(what, condition)
  if not vim.wait(WAIT_MS, condition, 5) then
    error(('timed out after %d ms waiting for %s'):format(WAIT_MS, what), 0)
  end
end

local function diagnostics(bufnr, filter)
  return vim.tbl_filter(filter or function() return true end, vim.diagnostic.get(bufnr))
end

local function messages()
  return vim.api.nvim_exec2('messages', { output = true }).output
end

local function count(haystack, needle)
  local n, from = 0, 1
  while true do
    local at = haystack:find(needle, from, true)
    if not at then return n end
    n, from = n + 1, at + #needle
  end
end

local function set_text(bufnr, text)
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, vim.split(text, '\n', { plain = true }))
end

local function cursor_on(bufnr, needle, delta)
  for row, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then
      vim.api.nvim_win_set_cursor(0, { row, col - 1 + (delta or 0) })
      return
    end
  end
  error('not in the buffer: ' .. needle, 0)
end

local function floating_text()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      return table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), '\n'), win
    end
  end
end

local function dry_run_warning(bufnr)
  return diagnostics(bufnr, function(d) return d.source == 'nova dry-run' end)[1]
end

local function session()
  -- 1. The script opens; nova attaches with the project folder as its root.
  local started = now_ms()
  vim.cmd.edit(vim.fn.fnameescape(plan.script))
  local bufnr = vim.api.nvim_get_current_buf()
  local client
  wait_for('nova to attach', function()
    client = vim.lsp.get_clients({ bufnr = bufnr, name = 'nova' })[1]
    return client ~= nil and client.initialized
  end)
  steps.root = client.root_dir
  steps.filetype = vim.bo[bufnr].filetype

  -- 2. tsc's type error, where it is.
  wait_for('the type error on direction', function()
    return #diagnostics(bufnr, function(d) return d.message:find('Direction', 1, true) ~= nil end) > 0
  end)
  latency.open_to_diagnostics = now_ms() - started
  local typo = diagnostics(bufnr, function(d) return d.message:find('Direction', 1, true) ~= nil end)[1]
  steps.type_error = { line = typo.lnum, col = typo.col, message = typo.message, severity = typo.severity }

  -- 3. Hover (K) on a rule: its meaning and the value the project's rules.json gives it.
  cursor_on(bufnr, 'cargoCapacity', 3)
  local t = now_ms()
  vim.lsp.buf.hover()
  local text, win
  wait_for('the hover window', function()
    text, win = floating_text()
    return text ~= nil
  end)
  latency.hover = now_ms() - t
  steps.hover = text
  vim.api.nvim_win_close(win, true)

  -- 3b. Go to definition (gd / vim.lsp.buf.definition()) of a game global: the project's typings,
  -- answered by nova lsp's TypeScript checker (no second TypeScript server is attached).
  cursor_on(bufnr, 'rules.android', 1)
  vim.lsp.buf.definition()
  wait_for('go to definition to open another file', function() return vim.api.nvim_get_current_buf() ~= bufnr end)
  steps.definition = { file = vim.api.nvim_buf_get_name(0), line = vim.api.nvim_win_get_cursor(0)[1] - 1,
                       text = vim.api.nvim_get_current_line() }
  steps.clients = vim.tbl_map(function(c) return c.name end, vim.lsp.get_clients({ bufnr = bufnr }))
  vim.api.nvim_set_current_buf(bufnr)

  -- 4. The code lens on `export default` (nova.lua refreshes lenses on attach).
  wait_for('the dry-run code lens', function() return #vim.lsp.codelens.get(bufnr) > 0 end)
  local lens = vim.lsp.codelens.get(bufnr)[1]
  steps.code_lens = { line = lens.range.start.line, title = lens.command and lens.command.title, command = lens.command and lens.command.command }

  -- 5. An edit fixes the type error; the new diagnostics arrive.
  set_text(bufnr, plan.refused_script)
  t = now_ms()
  wait_for('the type error to go away after the edit', function()
    return #diagnostics(bufnr, function(d) return d.severity == vim.diagnostic.severity.ERROR end) == 0
  end)
  latency.edit_to_diagnostics = now_ms() - t

  -- 6. :NovaDryRun: the verdict is shown once and stays as a warning on `export default`.
  local before = messages()
  t = now_ms()
  vim.cmd('NovaDryRun')
  wait_for('the dry-run warning on export default', function() return dry_run_warning(bufnr) ~= nil end)
  latency.first_dry_run = now_ms() - t
  local warning = dry_run_warning(bufnr)
  steps.dry_run_warning = { line = warning.lnum, col = warning.col, message = warning.message, severity = warning.severity, code = warning.code }
  wait_for('the dry-run verdict in :messages', function() return count(messages(), 'Dry-run as') > count(before, 'Dry-run as') end)
  vim.wait(300, function() return false end) -- a second copy of the verdict would arrive by now
  steps.verdicts_shown = count(messages(), 'Dry-run as') - count(before, 'Dry-run as')

  -- 7. Warm dry-runs: an edit clears the warning, the next dry-run brings it back.
  latency.warm_dry_runs = {}
  for i = 1, 3 do
    set_text(bufnr, plan.refused_script .. ('\n// edit %d'):format(i))
    wait_for('the warning to clear after an edit', function() return dry_run_warning(bufnr) == nil end)
    t = now_ms()
    vim.cmd('NovaDryRun')
    wait_for('the warning after a warm dry-run', function() return dry_run_warning(bufnr) ~= nil end)
    table.insert(latency.warm_dry_runs, now_ms() - t)
  end

  -- 8. A rules file with a partial leaf: flagged at its key.
  vim.cmd.edit(vim.fn.fnameescape(plan.rules_file))
  local rules_buf = vim.api.nvim_get_current_buf()
  steps.rules_filetype = vim.bo[rules_buf].filetype
  wait_for('the rules file diagnostic', function() return #diagnostics(rules_buf) > 0 end)
  local problem = diagnostics(rules_buf)[1]
  steps.rules_diagnostic = { line = problem.lnum, col = problem.col, end_col = problem.end_col, message = problem.message }
end

local ok, err = pcall(session)
local result = { ok = ok, error = not ok and tostring(err) or nil, steps = steps, latency_ms = latency }
if not ok then
  result.messages = messages()
  result.log = vim.lsp.get_log_path()
end
vim.fn.writefile({ vim.json.encode(result) }, plan.out)
vim.cmd(ok and 'qa!' or 'cquit! 1')
