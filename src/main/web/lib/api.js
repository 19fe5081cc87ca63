// Every call to the service: JSON in and out, the bearer token, and the service's error shapes.
import { session, signOut, rememberReturn } from './session.js';

// Empty when the client is served by the service itself; set in index.html when it is hosted
// elsewhere (WEB_ORIGIN), see docs/web.md.
const BASE = document.querySelector('meta[name="periscope-api"]')?.content || '';

/** A refusal of the service: its status, message, the fields it names, and when to retry. */
export class ApiError extends Error {
  constructor(status, body, retryAfter) {
    super((body && body.error) || `the service answered ${status}`);
    this.status = status;
    this.issues = (body && body.issues) || [];
    this.quota = body && body.quota;
    this.retryAfter = retryAfter;
  }
}

let onUnauthorized = () => {};

/** What the app does when the token is refused anywhere: back to sign-in, then where it was. */
export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

/** A body is sent as JSON, or as it is when {@code contentType} names its type (an OPML file). */
export async function api(method, path, body, { signal, anonymous, contentType } = {}) {
  const headers = {};
  const s = session();
  if (s && !anonymous) headers.Authorization = `Bearer ${s.token}`;
  if (body !== undefined) headers['Content-Type'] = contentType || 'application/json';
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined || contentType ? body : JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, { error: 'the service cannot be reached; check the connection' });
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  // Only the first refusal of a session ends it: the requests a page sent beside it are refused too,
  // and by then the address is the sign-in page's, which is no place to come back to.
  if (response.status === 401 && s && !anonymous && session()?.token === s.token) {
    signOut();
    rememberReturn(location.pathname + location.search);
    onUnauthorized();
  }
  if (!response.ok) {
    throw new ApiError(response.status, json, response.headers.get('Retry-After'));
  }
  return { status: response.status, body: json, location: response.headers.get('Location') };
}

/**
 * Signing out: the service ends this sign-in, so its token is refused from then on wherever a copy
 * of it went; then this browser forgets it. When the service cannot be told (offline), the token is
 * forgotten here all the same and ends when it expires.
 */
export async function endSession() {
  try {
    await api('POST', '/auth/logout');
  } catch {
    // ended already (a 401 has signed out here), or the service is unreachable
  }
  signOut();
}

export const get = (path, options) => api('GET', path, undefined, options).then((r) => r.body);
export const post = (path, body, options) => api('POST', path, body, options).then((r) => r.body);
export const put = (path, body, options) => api('PUT', path, body, options).then((r) => r.body);
export const del = (path, options) => api('DELETE', path, undefined, options).then((r) => r.body);

/** Server-sent events of the service (a run-all's outcomes), read with the token in a header. */
export async function events(path, onEvent, { signal } = {}) {
  const s = session();
  const response = await fetch(BASE + path, {
    headers: { Authorization: `Bearer ${s.token}`, Accept: 'text/event-stream' },
    signal,
  });
  if (!response.ok) throw new ApiError(response.status, null, null);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trim();
      }
      if (onEvent(event, data ? JSON.parse(data) : null) === false) return;
    }
  }
}

export const enc = encodeURIComponent;
