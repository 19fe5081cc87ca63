// Client routes on the History API: every page has its own path (deep links, back and forward).
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set();

export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  listeners.forEach((l) => l());
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => listeners.forEach((l) => l()));

/** The current path, re-rendering on every navigation. */
export function useLocation() {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const listener = () => setPath(location.pathname);
    listeners.add(listener);
    listener(); // a navigation before this effect ran
    return () => listeners.delete(listener);
  }, []);
  return path;
}

/** The first route whose pattern ('/watch/:id') matches, with its decoded parameters. */
export function match(routes, path) {
  const parts = path.split('/').filter(Boolean);
  for (const route of routes) {
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params = {};
    const ok = pattern.every((p, i) => {
      if (p.startsWith(':')) {
        try {
          params[p.slice(1)] = decodeURIComponent(parts[i]);
        } catch {
          return false;
        }
        return true;
      }
      return p === parts[i];
    });
    if (ok) return { route, params };
  }
  return null;
}

/** A link that navigates inside the client (a modified click still opens a new tab). */
export function Link({ href, children, ...props }) {
  const onClick = (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return h('a', { href, onClick, ...props }, children);
}
