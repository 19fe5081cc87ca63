// Which of the person's devices (Web Push subscriptions) is this browser: the id the service gave
// it when it registered, kept in localStorage so that the editor can offer "this browser" as a
// channel and the devices page can mark it.
const DEVICE = 'periscope.device';

/** The id of the device this browser registered, if it did. */
export function thisBrowsersDevice() {
  return localStorage.getItem(DEVICE);
}

export function rememberThisBrowsersDevice(id) {
  localStorage.setItem(DEVICE, id);
}

export function forgetThisBrowsersDevice() {
  localStorage.removeItem(DEVICE);
}
