// Forms that help: the service's issues as sentences about the field they name, and after a
// refusal a summary at the top of the form linking to each marked field, focus on the first.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { explain } from './ui.js';

const VERB = /^(is|are|must|may|has|have|needs?|cannot|can|does|do|should|was|were|names?|matches)\b/;

/**
 * An issue the service gave for a field, said of the field by its label: "must not be empty" next
 * to "Name" reads "Name is needed."
 */
export function forPerson(label, message) {
  const text = (message || '').trim();
  const end = (s) => (/[.!?]$/.test(s) ? s : `${s}.`);
  if (typeof label !== 'string' || !label) return end(text.charAt(0).toUpperCase() + text.slice(1));
  if (/^(is required|must not be empty|must not be blank|must be a non-empty string)$/.test(text))
    return `${label} is needed.`;
  return end(VERB.test(text) ? `${label} ${text}` : `${label}: ${text}`);
}

/** Opens the folded sections around a control, so that it can take the focus. */
function reveal(control) {
  for (let d = control.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
}

function focusControl(id) {
  const control = id && document.getElementById(id);
  if (!control) return false;
  reveal(control);
  control.focus();
  return true;
}

/**
 * At the top of a form: after a refusal ({@code error}), what was not {@code done} and a link to
 * each field marked below it; the focus moves to the first such field (else to this summary).
 * Issues the form shows at no field are listed here as they are.
 */
export function FormErrors({ error, form, done = 'saved' }) {
  const [marked, setMarked] = useState([]);
  const box = useRef(null);
  useEffect(() => {
    if (!error || !form.current) {
      setMarked([]);
      return;
    }
    const fields = [...form.current.querySelectorAll('.field.invalid')].map((f) => ({
      id: f.querySelector('[aria-invalid="true"]')?.id,
      text: f.querySelector('.issues li')?.textContent || '',
    }));
    const loose = [...form.current.querySelectorAll('.issues')]
      .filter((e) => !e.closest('.field'))
      .flatMap((e) => (e.tagName === 'UL' ? [...e.children] : [e]).map((x) => ({ text: x.textContent })));
    setMarked([...fields, ...loose]);
    if (!focusControl(fields[0]?.id)) box.current?.focus();
  }, [error]);
  if (!error) return null;
  const general = error.issues?.length
    ? error.issues.filter((i) => !i.path?.length).map((i) => ({ text: forPerson('', i.message) }))
    : [{ text: explain(error) }];
  const items = [...marked, ...general];
  return h(
    'div',
    { class: 'error error-summary', role: 'alert', tabIndex: -1, ref: box },
    h(
      'p',
      { class: 'summary-title' },
      error.issues?.length
        ? `Not ${done}: ${items.length === 1 ? 'one thing needs' : `${items.length} things need`} your attention.`
        : `Not ${done}.`,
    ),
    items.length
      ? h(
          'ul',
          null,
          items.map((i, n) =>
            h(
              'li',
              { key: n },
              i.id
                ? h('a', { href: `#${i.id}`, onClick: (e) => (e.preventDefault(), focusControl(i.id)) }, i.text)
                : i.text,
            ),
          ),
        )
      : null,
  );
}
