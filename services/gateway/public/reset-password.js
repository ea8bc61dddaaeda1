// The reset form with script (services/gateway/src/pages/reset-password-page.ts renders it): checks
// the site's password rules as identity does, posts JSON to POST /api/v1/reset-password and shows
// the API's localized answer. Without script the same form posts to the page handler instead.
(() => {
  'use strict';
  const form = document.getElementById('reset-form');
  const dataBlock = document.getElementById('page-data');
  if (!form || !dataBlock) return;
  const { policy, messages } = JSON.parse(dataBlock.textContent);
  const lang = document.documentElement.lang;
  const password = document.getElementById('new_password');
  const confirm = document.getElementById('confirm_password');
  const result = document.getElementById('result');
  const button = form.querySelector('button[type="submit"]');

  // The token stays in the form only: off the address bar and out of the history.
  if (window.history.replaceState) window.history.replaceState(null, '', window.location.pathname);

  // The same rules and order as identity's passwordPolicyViolations: length in code points, ASCII
  // letter and digit classes, and any other character counts as a symbol.
  function violations(value) {
    const keys = [];
    const length = Array.from(value).length;
    if (length < policy.min_length) keys.push('password_too_short');
    if (length > policy.max_length) keys.push('password_too_long');
    if (policy.require_uppercase && !/[A-Z]/.test(value)) keys.push('password_requires_uppercase');
    if (policy.require_lowercase && !/[a-z]/.test(value)) keys.push('password_requires_lowercase');
    if (policy.require_digit && !/[0-9]/.test(value)) keys.push('password_requires_digit');
    if (policy.require_symbol && !/[^A-Za-z0-9]/.test(value)) keys.push('password_requires_special');
    return keys;
  }

  function showFieldErrors(input, texts) {
    const list = document.getElementById(`${input.id}-errors`);
    list.replaceChildren(
      ...texts.map((text) => {
        const item = document.createElement('li');
        item.textContent = text;
        return item;
      }),
    );
    if (texts.length > 0) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  function showOutcome(kind, text, detail) {
    const line = document.createElement('p');
    line.className = `outcome ${kind}`;
    line.setAttribute('role', kind === 'ok' ? 'status' : 'alert');
    line.textContent = text;
    const more = document.createElement('p');
    more.className = 'detail';
    more.textContent = detail;
    form.remove();
    result.replaceChildren(line, more);
  }

  // The rule list turns green rule by rule while typing.
  password.addEventListener('input', () => {
    const broken = new Set(violations(password.value));
    for (const item of form.querySelectorAll('[data-rule]')) {
      item.classList.toggle('met', password.value !== '' && !broken.has(item.dataset.rule));
    }
  });

  const toggle = document.getElementById('show-password');
  document.getElementById('show-password-label').hidden = false;
  toggle.addEventListener('change', () => {
    const type = toggle.checked ? 'text' : 'password';
    password.type = type;
    confirm.type = type;
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const broken = violations(password.value).map((key) => messages[key]);
    showFieldErrors(password, broken);
    showFieldErrors(confirm, confirm.value === password.value ? [] : [messages.passwords_differ]);
    if (broken.length > 0) return password.focus();
    if (confirm.value !== password.value) return confirm.focus();

    button.disabled = true;
    try {
      const response = await fetch('/api/v1/reset-password', {
        method: 'POST',
        credentials: 'omit',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'accept-language': lang },
        body: JSON.stringify({ token: form.elements.token.value, new_password: password.value }),
      });
      const envelope = await response.json();
      if (envelope.code === 0) {
        showOutcome('ok', envelope.msg, messages.reset_done);
        return;
      }
      const fieldReasons = envelope.data && envelope.data.errors && envelope.data.errors.new_password;
      if (envelope.code === 1001 && Array.isArray(fieldReasons)) {
        showFieldErrors(password, fieldReasons.map(String));
        password.focus();
        return;
      }
      showOutcome('error', envelope.msg, messages.reset_again);
    } catch {
      showOutcome('error', messages.internal_error, messages.reset_again);
    } finally {
      button.disabled = false;
    }
  });
})();
