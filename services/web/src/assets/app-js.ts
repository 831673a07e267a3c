/**
 * Progressive enhancement, served from /app/assets/ (CSP `script-src 'self'`): every page
 * works without it. It adds copy buttons, a busy state on forms, a filter over long lists of
 * template boxes, and the template editor's live token highlighting and preview (the server
 * renders the same on "Preview").
 */
export const APP_JS = `(() => {
  'use strict';
  const escape = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  const TOKEN = /\\{\\{\\s*([A-Za-z_][A-Za-z0-9_.-]{0,99})\\s*\\}\\}/g;

  // Copy buttons: <button data-copy="input-id">. The field stays selectable without script.
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const field = document.getElementById(button.dataset.copy);
      const status = document.getElementById(button.dataset.copy + '-status');
      try {
        await navigator.clipboard.writeText(field.value);
        if (status) status.textContent = 'Copied to the clipboard.';
      } catch {
        field.focus();
        field.select();
        if (status) status.textContent = 'Selected: press Ctrl+C (or Cmd+C) to copy.';
      }
    });
  }

  // A form being sent says so, and a second click does not send it twice.
  for (const form of document.querySelectorAll('form')) {
    form.addEventListener('submit', (event) => {
      if (form.dataset.busy === 'true') { event.preventDefault(); return; }
      form.dataset.busy = 'true';
      const button = event.submitter;
      if (button) { button.setAttribute('aria-busy', 'true'); }
      const status = form.querySelector('[data-busy-status]');
      if (status) status.textContent = 'Working…';
    });
  }

  // Template filter: <input data-filter-boxes="fieldset-id"> over that fieldset's boxes, by
  // name or id (the box's name ends with it). A ticked box always stays shown.
  for (const filter of document.querySelectorAll('input[data-filter-boxes]')) {
    const fieldset = document.getElementById(filter.dataset.filterBoxes);
    if (!fieldset) continue;
    const status = document.getElementById(filter.id + '-status');
    const boxes = [...fieldset.querySelectorAll(':scope > label')].flatMap((label) => {
      const box = label.querySelector('input[type=checkbox]');
      if (!box) return [];
      const hint = label.querySelector('.hint');
      const name = label.textContent.replace(hint ? hint.textContent : '', '');
      const id = box.name.slice(box.name.lastIndexOf('_') + 1);
      return [{ label, box, key: (name + ' ' + id).replace(/\\s+/g, ' ').toLowerCase() }];
    });
    const apply = () => {
      const wanted = filter.value.trim().replace(/\\s+/g, ' ').toLowerCase();
      let shown = 0;
      for (const { label, box, key } of boxes) {
        label.hidden = !box.checked && wanted !== '' && !key.includes(wanted);
        if (!label.hidden) shown += 1;
      }
      if (status) status.textContent = 'Showing ' + shown + ' of ' + boxes.length + ' templates.';
    };
    filter.addEventListener('input', apply);
    filter.addEventListener('search', apply);
    // Enter filters; it does not send the form.
    filter.addEventListener('keydown', (event) => { if (event.key === 'Enter') event.preventDefault(); });
    const field = document.getElementById(filter.id + '-field');
    if (field) field.hidden = false;
    // A value the browser kept (back and forward) filters at once.
    if (filter.value !== '') apply();
  }

  // Template editor: tokens highlighted and listed, and a preview with sample render_data.
  const source = document.getElementById('html');
  const highlight = document.getElementById('highlight');
  if (source && highlight) {
    const tokens = document.getElementById('tokens');
    const sample = document.getElementById('sample');
    const preview = document.getElementById('preview');
    const sampleError = document.getElementById('sample-error');
    const update = () => {
      const text = source.value;
      let out = '';
      let last = 0;
      const names = [];
      for (const match of text.matchAll(TOKEN)) {
        out += escape(text.slice(last, match.index)) + '<mark class="token">' + escape(match[0]) + '</mark>';
        last = match.index + match[0].length;
        if (!names.includes(match[1])) names.push(match[1]);
      }
      highlight.innerHTML = out + escape(text.slice(last));
      if (tokens) tokens.innerHTML = names.length === 0
        ? '<li>none</li>'
        : names.map((n) => '<li>{{' + escape(n) + '}}</li>').join('');
      let data = {};
      if (sample) {
        try {
          data = sample.value.trim() === '' ? {} : JSON.parse(sample.value);
          if (sampleError) sampleError.textContent = '';
          sample.removeAttribute('aria-invalid');
        } catch {
          if (sampleError) sampleError.textContent = 'The sample data is not valid JSON.';
          sample.setAttribute('aria-invalid', 'true');
        }
      }
      if (preview) preview.srcdoc = text.replace(TOKEN, (all, name) =>
        typeof data[name] === 'string' ? escape(data[name]) : escape(all));
    };
    source.addEventListener('input', update);
    if (sample) sample.addEventListener('input', update);
    update();
  }
})();
`;
