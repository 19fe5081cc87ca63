// Where the token lives (docs/web.md): localStorage, so that every tab and a notification's new
// window share one sign-in for its lifetime; it is removed on sign-out, on expiry and on any 401.
// The strict CSP and text-only rendering are what keep scripts from reading it.
const KEY = 'periscope.session';
const RETURN_TO = 'periscope.returnTo';
const SIGN_IN_NONCE = 'periscope.signInNonce';

function decode(token) {
  try {
    const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(part));
  } catch {
    return null;
  }
}

/** The signed-in person ({token, id, role, expiresAt}) or null; an expired token is forgotten. */
export function session() {
  const token = localStorage.getItem(KEY);
  if (!token) return null;
  const claims = decode(token);
  if (!claims || !claims.exp || claims.exp * 1000 <= Date.now()) {
    localStorage.removeItem(KEY);
    return null;
  }
  return { token, id: claims.sub, role: claims.role, expiresAt: new Date(claims.exp * 1000) };
}

export function signIn(token) {
  localStorage.setItem(KEY, token);
}

export function signOut() {
  localStorage.removeItem(KEY);
}

/**
 * Starts an identity provider's sign-in in this tab: a nonce kept in this tab alone, which the
 * service hands back with the session (/auth/<provider>?nonce=…).
 */
export function beginProviderSignIn() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const nonce = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  sessionStorage.setItem(SIGN_IN_NONCE, nonce);
  return nonce;
}

/**
 * Whether a session handed over in the fragment is the sign-in this tab started: anybody can send
 * a link with a token of their own account, which would put the victim's next watches and devices
 * in it. A nonce is good once.
 */
export function startedHere(nonce) {
  const expected = sessionStorage.getItem(SIGN_IN_NONCE);
  sessionStorage.removeItem(SIGN_IN_NONCE);
  return Boolean(expected) && nonce === expected;
}

/** Where to go back to after signing in again. */
export function rememberReturn(path) {
  sessionStorage.setItem(RETURN_TO, path);
}

export function takeReturn() {
  const path = sessionStorage.getItem(RETURN_TO);
  sessionStorage.removeItem(RETURN_TO);
  return path && path.startsWith('/') && !path.startsWith('//') ? path : '/';
}

/**
 * Reads what an identity provider's return or a mailed link put in the URL fragment, and removes
 * it from the address bar at once (it never reaches a server, and should not stay in history).
 */
export function takeFragment() {
  const hash = location.hash;
  if (!hash || hash.length < 2) return {};
  const params = Object.fromEntries(new URLSearchParams(hash.slice(1)));
  history.replaceState(history.state, '', location.pathname + location.search);
  return params;
}
