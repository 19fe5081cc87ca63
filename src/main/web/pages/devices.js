// "Get alerts on this browser": a Web Push subscription with the service's VAPID key, through the
// service worker; and the person's devices, listed and removed.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { del, enc, get, post } from '../lib/api.js';
import { forgetThisBrowsersDevice, rememberThisBrowsersDevice, thisBrowsersDevice } from '../lib/device.js';
import { when } from '../lib/time.js';
import { Button, Empty, ErrorMessage, Page, PlainList, TextField, loaded, useAction, useLoad } from '../lib/ui.js';

function bytes(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function subscribe(name) {
  if (!('serviceWorker' in navigator) || !('PushManager' in window))
    throw new Error('This browser cannot receive push alerts.');
  const registration = await navigator.serviceWorker.register('/service-worker.js');
  await navigator.serviceWorker.ready;
  const { publicKey } = await get('/devices/vapid-public-key');
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: bytes(publicKey),
  });
  const json = subscription.toJSON();
  const device = await post('/devices', { name, endpoint: json.endpoint, keys: json.keys });
  rememberThisBrowsersDevice(device.id);
  return device;
}

function guessName() {
  const ua = navigator.userAgent;
  const browser = /Firefox\//.test(ua)
    ? 'Firefox'
    : /Edg\//.test(ua)
      ? 'Edge'
      : /Chrom/.test(ua)
        ? 'Chromium'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return `${browser}${system ? ` on ${system}` : ''}`;
}

export function Devices() {
  const list = useLoad(() => get('/devices'));
  const [name, setName] = useState(guessName());
  const add = useAction();
  const remove = useAction();
  const mine = thisBrowsersDevice();
  const registered = list.data?.devices.some((d) => d.id === mine);
  const register = () =>
    add.act(async () => {
      await subscribe(name);
      list.reload();
    });
  const removeDevice = (d) =>
    remove.act(async () => {
      await del(`/devices/${enc(d.id)}`);
      if (d.id === mine) {
        forgetThisBrowsersDevice();
        const registration = await navigator.serviceWorker?.getRegistration();
        const subscription = await registration?.pushManager.getSubscription();
        await subscription?.unsubscribe();
      }
      list.reload();
    });
  return h(
    Page,
    { title: 'Alerts on your devices' },
    h(
      'p',
      null,
      'Watches with the push channel alert every device listed here. A click on an alert opens the watch’s runs.',
    ),
    registered
      ? h('p', { role: 'status' }, 'This browser gets your push alerts.')
      : h(
          'form',
          { class: 'form', onSubmit: (e) => (e.preventDefault(), register()) },
          h(TextField, { label: 'Name of this device', value: name, onInput: setName }),
          h(ErrorMessage, { error: add.error }),
          h(Button, { type: 'submit', kind: 'primary', busy: add.busy }, 'Get alerts on this browser'),
        ),
    h('h2', null, 'Your devices'),
    h(ErrorMessage, { error: list.error || remove.error }),
    loaded(list, ({ devices }) =>
      h(PlainList, {
        items: devices,
        empty: h(Empty, null, h('p', null, 'No device gets push alerts yet.')),
        item: (d) =>
          h(
            'li',
            { class: 'card row', key: d.id },
            h(
              'div',
              { class: 'watch-main' },
              h('strong', null, d.name),
              d.id === mine ? ' (this browser)' : '',
              h('p', { class: 'meta' }, `${d.pushService} · registered ${when(d.registeredAt)}`),
            ),
            h(
              Button,
              {
                kind: 'danger',
                busy: remove.busy,
                onClick: () => removeDevice(d),
                'aria-label': `Remove ${d.name}`,
              },
              'Remove',
            ),
          ),
      }),
    ),
  );
}
