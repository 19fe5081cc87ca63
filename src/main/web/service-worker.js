// Shows the service's push alerts (payload: devices/WebPushSender in the service) and opens the
// watch's run history when one is clicked. It caches nothing: the client is always the service's.
self.addEventListener('push', (event) => {
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch {
    alert = { summary: event.data ? event.data.text() : '' };
  }
  const title = `${alert.strength === 'weak' ? 'Possible: ' : ''}${alert.watchName || 'Periscope alert'}`;
  event.waitUntil(
    self.registration.showNotification(title, {
      body: alert.summary || '',
      tag: alert.watchId ? `periscope-${alert.watchId}` : undefined,
      data: { path: alert.watchId ? `/watch/${encodeURIComponent(alert.watchId)}` : '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = event.notification.data?.path || '/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        open.postMessage({ type: 'periscope.open', path });
        return open.focus();
      }
      return self.clients.openWindow(path);
    }),
  );
});
