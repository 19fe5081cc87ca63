// A few line icons, drawn here (no icon font, nothing fetched). They are decoration: the words next
// to them (shown, or hidden for screen readers) name what they mean.
import { h } from 'preact';

// each a list of SVG path data on a 24 × 24 grid, stroked with the text's colour
const PATHS = {
  bell: ['M6 16v-5a6 6 0 0 1 12 0v5l2 2H4z', 'M10 21h4'],
  warning: ['M12 3 2 20h20z', 'M12 9v5', 'M12 17v.5'],
  dash: ['M6 12h12'],
  'no-match': ['M12 4a8 8 0 1 0 0.01 0', 'M6.5 17.5l11-11'],
  play: ['M7 4v16l13-8z'],
  pencil: ['M4 20h4L19 9l-4-4L4 16z', 'M13 7l4 4'],
  plus: ['M12 5v14', 'M5 12h14'],
  sparkle: ['M12 3l2 6 6 2-6 2-2 6-2-6-6-2 6-2z'],
  menu: ['M4 6h16', 'M4 12h16', 'M4 18h16'],
  close: ['M6 6l12 12', 'M18 6 6 18'],
  'sign-out': ['M14 4h5v16h-5', 'M10 8l-4 4 4 4', 'M6 12h10'],
  repeat: ['M4 12a8 8 0 0 1 14-5l2 2', 'M20 4v5h-5', 'M20 12a8 8 0 0 1-14 5l-2-2', 'M4 20v-5h5'],
};

/** The icon {@code name}, hidden from assistive technology. */
export const Icon = ({ name }) =>
  h(
    'svg',
    {
      class: 'icon',
      viewBox: '0 0 24 24',
      width: 16,
      height: 16,
      'aria-hidden': 'true',
      focusable: 'false',
    },
    (PATHS[name] || []).map((d) => h('path', { d })),
  );
