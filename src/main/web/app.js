// The client's entry: its routes, the frame around every page, and what a 401 does.
import { h, render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { endSession, whenUnauthorized } from './lib/api.js';
import { Link, match, navigate, useLocation } from './lib/router.js';
import { rememberReturn, session, signIn, startedHere, takeFragment, takeReturn } from './lib/session.js';
import { Icon } from './lib/icons.js';
import { Page } from './lib/ui.js';
import * as auth from './pages/auth.js';
import { Accounts, Audit, Keys, Models } from './pages/admin.js';
import { Assist, Revise } from './pages/assist.js';
import { Devices } from './pages/devices.js';
import { EditWatch, NewWatch } from './pages/editor.js';
import { Tokens } from './pages/tokens.js';
import { Usage } from './pages/usage.js';
import { Versions } from './pages/versions.js';
import { TrustRules } from './pages/trust.js';
import { Statistics, WatchPage } from './pages/watch.js';
import { WatchList } from './pages/watches.js';

// Every page, its path (none is a path of the service's interface: docs/web.md), and who sees it.
const ROUTES = [
  { path: '/sign-in', page: auth.SignIn, open: true },
  { path: '/register', page: auth.Register, open: true },
  { path: '/setup', page: auth.Setup, open: true },
  { path: '/forgot-password', page: auth.ForgotPassword, open: true },
  { path: '/reset-password', page: auth.ResetPassword, open: true },
  { path: '/verify-email', page: auth.VerifyEmail, open: true },
  { path: '/link-identity', page: auth.LinkIdentity, open: true },
  { path: '/confirm-email-channel', page: auth.ConfirmEmailChannel, open: true },
  { path: '/', page: WatchList },
  { path: '/new-watch', page: NewWatch }, // not /watch/new: "new" may be a watch's id
  { path: '/watch/:id', page: WatchPage },
  { path: '/watch/:id/edit', page: EditWatch },
  { path: '/watch/:id/revise', page: Revise },
  { path: '/watch/:id/versions', page: Versions },
  { path: '/assist', page: Assist },
  { path: '/trust', page: TrustRules },
  { path: '/notifications', page: Devices },
  { path: '/statistics', page: Statistics },
  { path: '/usage', page: Usage },
  { path: '/api-tokens', page: Tokens },
  { path: '/administration', page: Accounts, admin: true },
  { path: '/administration/accounts', page: Accounts, admin: true },
  { path: '/administration/keys', page: Keys, admin: true },
  { path: '/administration/model', page: Models, admin: true },
  { path: '/administration/audit', page: Audit, admin: true },
];

// [path, text, administrators only]
const NAV = [
  ['/', 'Watches'],
  ['/assist', 'Draft with AI'],
  ['/trust', 'Trust rules'],
  ['/notifications', 'Devices'],
  ['/statistics', 'Statistics'],
  ['/usage', 'Usage'],
  ['/api-tokens', 'API tokens'],
  ['/administration/accounts', 'Administration', true],
];

// A token or an error handed over in the fragment is read once and leaves the address bar at once.
// A session is taken only from the sign-in this tab started; any other is ignored, with a word.
const fragment = takeFragment();
let ignoredSession = false;
if (fragment.token && location.pathname === '/') {
  if (startedHere(fragment.nonce)) {
    signIn(fragment.token);
    history.replaceState(null, '', takeReturn());
  } else {
    ignoredSession = true;
  }
}
let expired = false;

const NotFound = () => h(Page, { title: 'Page not found' }, h('p', null, 'There is no such page. ', h(Link, { href: '/' }, 'Go to your watches'), '.'));

// the brand's mark, served beside this module
const ICON = new URL('icon.svg', import.meta.url).href;

/** The menu, folded behind a button on a small screen (app.css) and closed again on each navigation. */
function Menu({ who, path }) {
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [path]);
  return [
    h(
      'button',
      { type: 'button', class: 'button secondary menu-toggle', 'aria-expanded': String(open), 'aria-controls': 'main-menu', onClick: () => setOpen(!open) },
      h(Icon, { name: open ? 'close' : 'menu' }),
      'Menu',
    ),
    h(
      'nav',
      { 'aria-label': 'Main', id: 'main-menu', class: open ? 'open' : undefined },
      h(
        'ul',
        null,
        NAV.filter(([, , adminOnly]) => !adminOnly || who.role === 'admin').map(([href, text]) =>
          h('li', null, h(Link, { href, 'aria-current': path === href || (href !== '/' && path.startsWith(href.split('/').slice(0, 2).join('/'))) ? 'page' : undefined }, text)),
        ),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'button secondary',
          onClick: () => endSession().then(() => navigate('/sign-in')),
        },
        h(Icon, { name: 'sign-out' }),
        'Sign out',
      ),
    ),
  ];
}

function Frame({ who, path, children }) {
  return [
    h('a', { class: 'skip', href: '#main' }, 'Skip to content'),
    h('header', { class: 'top' }, h(Link, { href: '/', class: 'brand' }, h('img', { src: ICON, alt: '', width: 24, height: 24 }), 'Periscope'), who ? h(Menu, { who, path }) : null),
    h(
      'main',
      { id: 'main' },
      ignoredSession
        ? h(
            'p',
            { class: 'notice', role: 'alert', id: 'ignored-session' },
            'This page was opened with a sign-in that was not started here, so it was ignored. ',
            who ? `You are still signed in as ${who.id}.` : 'Sign in yourself to go on.',
          )
        : null,
      children,
    ),
  ];
}

function App() {
  const path = useLocation();
  const [, refresh] = useState(0);
  useEffect(() => {
    whenUnauthorized(() => {
      expired = true;
      navigate('/sign-in', { replace: true });
      refresh((n) => n + 1);
    });
  }, []);
  const who = session();
  const found = match(ROUTES, path);
  if (!found) return h(Frame, { who, path }, h(NotFound));
  const { route, params } = found;
  if (!route.open && !who) {
    rememberReturn(path + location.search);
    queueMicrotask(() => navigate('/sign-in', { replace: true }));
    return h(Frame, { who, path }, null);
  }
  if (route.admin && who.role !== 'admin') return h(Frame, { who, path }, h(NotFound));
  if (route.open && who && route.path === '/sign-in') {
    queueMicrotask(() => navigate('/', { replace: true }));
  }
  const wasExpired = expired;
  expired = false;
  return h(Frame, { who, path }, h(route.page, { key: path, ...params, fragment, expired: wasExpired, who }));
}

const root = document.getElementById('app');
root.textContent = '';
render(h(App), root);

// A notification's click opens a run in this client (service-worker.js).
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.addEventListener('message', (e) => {
    if (e.data?.type === 'periscope.open' && typeof e.data.path === 'string') navigate(e.data.path);
  });
}
