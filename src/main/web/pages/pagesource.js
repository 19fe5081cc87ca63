// A page source in the editor: the page's URL (the editor's value field), the elements to watch (a
// CSS selector, else the main content), those that never count (ignore selectors, one a line), and
// "Check", which shows what the service reads there now, as a run would, before anything is saved.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { post } from '../lib/api.js';
import { forPerson } from '../lib/forms.js';
import { Button, TextArea, TextField, explain, issuesAt, useAction } from '../lib/ui.js';

const SELECTOR = 'CSS selector';
const IGNORE = 'Ignore';

/** The ignore selectors as the service takes them: one a line, blank lines dropped. */
export const ignoreOf = (source) => (source.ignore || []).map((s) => s.trim()).filter(Boolean);

/**
 * A page source as the service takes it: an empty selector or ignore list is left out. Other
 * sources carry neither, so a source switched from page to feed leaves them behind.
 */
export function pageSourceBody(source) {
  const { selector, ignore, ...rest } = source;
  if (source.type !== 'page') return rest;
  const kept = ignoreOf(source);
  return { ...rest, ...(selector?.trim() ? { selector: selector.trim() } : {}), ...(kept.length ? { ignore: kept } : {}) };
}

/** The most blocks "Check" lists; the count says how many there are in all. */
const SHOWN_BLOCKS = 40;

/** What went wrong with a check, in a person's words: the field's issues, or the service's reason. */
function checkProblem(error) {
  if (error.status === 400 && error.issues?.length) {
    const label = { url: 'The page URL', selector: `The ${SELECTOR}`, ignore: 'An ignore selector' };
    return error.issues.map((i) => forPerson(label[i.path?.[0]] || '', i.message)).join(' ');
  }
  if (error.status === 422) return forPerson('', `nothing to watch here: ${error.message}`);
  if (error.status === 502) return forPerson('', error.message);
  return explain(error);
}

/** The selector and ignore fields of a page source, and its Check. */
export function PageSourceFields({ source, index, error, set }) {
  const at = (k) => issuesAt(error, ['sources', index, k]);
  return [
    h(TextField, {
      key: 'selector',
      label: SELECTOR,
      value: source.selector || '',
      onInput: (v) => set('selector', v),
      issues: at('selector'),
      spellcheck: false,
      hint: 'Optional: the elements to watch, such as #prices or table.releases. Empty: the page’s main content.',
    }),
    h(TextArea, {
      key: 'ignore',
      label: IGNORE,
      value: (source.ignore || []).join('\n'),
      onInput: (v) => set('ignore', v === '' ? undefined : v.split('\n')),
      issues: at('ignore'),
      hint: 'Optional, one CSS selector a line: parts that change without news, such as a clock or a visitor counter.',
    }),
    h(PageCheck, { key: 'check', source }),
  ];
}

/** "Check": the page's text as the watch would read it now, or why there is none. */
function PageCheck({ source }) {
  const [read, setRead] = useState(null);
  const check = useAction();
  const body = { url: source.value.trim(), selector: source.selector?.trim() || null, ignore: ignoreOf(source) };
  const asked = JSON.stringify(body);
  const run = () =>
    check.act(async () => {
      setRead(null);
      setRead({ asked, ...(await post('/sources/page/check', body)) });
    });
  // what was read for other fields than these is not shown as theirs
  const shown = read && read.asked === asked ? read : null;
  return h(
    'div',
    { class: 'page-check' },
    h(Button, { onClick: run, busy: check.busy, disabled: !body.url }, 'Check'),
    h(
      'div',
      { 'aria-live': 'polite' },
      check.error ? h('p', { class: 'error page-check-problem', role: 'alert' }, checkProblem(check.error)) : null,
      shown ? h(PageRead, { read: shown }) : null,
    ),
  );
}

function PageRead({ read }) {
  const more = read.blocks.length - SHOWN_BLOCKS;
  return h(
    'div',
    { class: 'page-read' },
    h(
      'p',
      { class: 'meta' },
      `${read.title ? `“${read.title}”: ` : ''}${read.blocks.length === 1 ? 'one block' : `${read.blocks.length} blocks`} of text this watch compares on each run`,
      read.rendered ? ', read through the headless browser.' : '.',
    ),
    h(
      'ol',
      { class: 'page-blocks' },
      read.blocks.slice(0, SHOWN_BLOCKS).map((b, i) => h('li', { key: i }, b.heading && b.heading !== b.text ? h('span', { class: 'meta' }, `${b.heading}: `) : null, b.text)),
    ),
    more > 0 ? h('p', { class: 'meta' }, `And ${more} more.`) : null,
  );
}
