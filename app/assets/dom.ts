type Child = Node | string | null | undefined | false;

/** Builds an element; text goes in as text nodes, never as HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/** Removes every `.error` the script added to a form, and the invalid marks. */
export function clearErrors(form: HTMLElement): void {
  for (const el of form.querySelectorAll('[data-script-error]')) el.remove();
  for (const el of form.querySelectorAll('[aria-invalid="true"]')) el.removeAttribute('aria-invalid');
}

/**
 * Shows a 422's messages under the fields they belong to; messages for fields the form does not
 * have go to its general error slot.
 */
export function showErrors(form: HTMLElement, errors: Record<string, string[]>, fallback?: string): void {
  clearErrors(form);
  const general: string[] = [];
  for (const [field, messages] of Object.entries(errors)) {
    const input = form.querySelector<HTMLElement>(`[name="${CSS.escape(field)}"]`);
    const box = input?.closest('.field, fieldset');
    if (!input || !box) {
      general.push(...messages);
      continue;
    }
    input.setAttribute('aria-invalid', 'true');
    box.append(h('p', { class: 'error', 'data-script-error': true, role: 'alert' }, messages.join(' ')));
  }
  if (general.length === 0 && fallback && Object.keys(errors).length === 0) general.push(fallback);
  if (general.length > 0) {
    const slot = form.querySelector('[data-form-error]') ?? form;
    slot.append(h('p', { class: 'error', 'data-script-error': true, role: 'alert' }, general.join(' ')));
  }
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** "Last used Jan 15, 2026" or "Never used": every credential kind shows its last use. */
export function lastUsed(iso: string | null | undefined): string {
  return iso ? `Last used ${formatDate(iso)}` : 'Never used';
}

/** A "Copy" button for a secret shown once. */
export function copyButton(value: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'btn', 'data-copy': true }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(value);
      button.textContent = 'Copied';
    } catch {
      // Clipboard access needs a secure context; select the text so the user can copy it by hand.
      const code = button.parentElement?.querySelector('code');
      if (code) getSelection()?.selectAllChildren(code);
      button.textContent = 'Press Ctrl+C';
    }
  });
  return button;
}

/** The once-only secret box: a label, the value, a copy button. */
export function secretBox(title: string, note: string, values: Array<[string, string]>): HTMLElement {
  return h(
    'div',
    { class: 'secret', role: 'status', 'data-secret': true },
    h('strong', {}, title),
    h('p', { class: 'small muted' }, note),
    ...values.map(([label, value]) =>
      h(
        'div',
        { class: 'value' },
        h('span', { class: 'small' }, label),
        h('code', { 'data-value': label }, value),
        copyButton(value),
      ),
    ),
  );
}
