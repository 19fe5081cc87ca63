// What this instance cannot serve in a watch (a search without a search key, e-mail without SMTP,
// Telegram without a bot, a channel that needs a confirmation, no channel at all), said before the
// watch is saved. The service never refuses a save for a warning; this client does not save until
// the person has seen the warnings and acknowledged them.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { post } from './api.js';

/** What each warning is about, in the person's words. */
function subject(w, sources, channels) {
  if (w.source != null) {
    const s = sources?.[w.source];
    return s ? `Source ${w.source + 1} (${s.type}: ${s.value})` : `Source ${w.source + 1}`;
  }
  if (w.channel != null) return `Channel ${channels?.[w.channel] ?? w.channel + 1}`;
  return null;
}

/** The warnings as a list; nothing when there are none. */
export function WarningList({ warnings, sources, channels, title = 'This watch may not work as it is' }) {
  if (!warnings?.length) return null;
  return h(
    'div',
    { class: 'warnings', role: 'status' },
    h('p', null, h('strong', null, title)),
    h(
      'ul',
      null,
      warnings.map((w, i) => {
        const about = subject(w, sources, channels);
        return h('li', { key: i, 'data-kind': w.kind }, about ? `${about}: ${w.message}` : capitalized(w.message));
      }),
    ),
  );
}

const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1) + '.';

/** What identifies a set of warnings, so an acknowledgement holds for exactly what was seen. */
const signature = (warnings) => JSON.stringify(warnings.map((w) => [w.kind, w.source ?? null, w.channel ?? null]));

/**
 * The editor's gate before a save: {@code cleared(path, watch)} has the service check the whole
 * watch at {@code path} (POST /watches/check, or /watches/:id/check for an edit), which refuses an
 * invalid one with its issues (thrown, for the form to show) before it names any warning; it
 * answers true when there are none or the person acknowledged exactly these. {@code view} shows
 * them with the acknowledgement.
 */
const GATE = 'save-warnings';

export function useWarningGate() {
  const [shown, setShown] = useState(null); // {warnings, sources, channels}
  const [acknowledged, setAcknowledged] = useState(null);
  const cleared = async (path, watch) => {
    let warnings;
    try {
      ({ warnings } = await post(path, watch));
    } catch (refused) {
      setShown(null); // what is wrong comes first; the warnings are asked for again after
      throw refused;
    }
    if (!warnings.length) {
      setShown(null);
      return true;
    }
    setShown({ warnings, sources: watch.sources, channels: watch.channels });
    const passed = acknowledged === signature(warnings);
    // the save stopped: the person is taken to why, at the form's end
    if (!passed) requestAnimationFrame(() => document.getElementById(GATE)?.focus());
    return passed;
  };
  const view = shown
    ? h(
        'div',
        { class: 'warning-gate', id: GATE, tabIndex: -1 },
        h(WarningList, shown),
        h(
          'label',
          { class: 'switch' },
          h('input', { type: 'checkbox', checked: acknowledged === signature(shown.warnings), onChange: (e) => setAcknowledged(e.target.checked ? signature(shown.warnings) : null) }),
          h('span', null, 'I understand; save it anyway'),
        ),
      )
    : null;
  return { cleared, view };
}
