// Five-field cron (minute hour day month weekday, read in the watch's time zone as the service
// reads it): in words, and its next fire times. The service validates every schedule; this only
// explains one.
const RANGES = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function value(text, field) {
  const names = field === 3 ? MONTHS : field === 4 ? DAYS : null;
  const i = names ? names.indexOf(text.toLowerCase()) : -1;
  if (i >= 0) return field === 3 ? i + 1 : i;
  if (!/^\d+$/.test(text)) throw new Error(`not a number: ${text}`);
  return Number(text);
}

/** One field as the set of values it matches, or null when it is not valid. */
function parseField(text, field) {
  const [lo, hi] = RANGES[field];
  const set = new Set();
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error('bad step');
    let from = lo;
    let to = hi;
    if (range !== '*') {
      const [a, b] = range.split('-');
      from = value(a, field);
      to = b === undefined ? (stepText === undefined ? from : hi) : value(b, field);
    }
    if (from < lo || to > hi || from > to) throw new Error('out of range');
    for (let v = from; v <= to; v += step) set.add(field === 4 && v === 7 ? 0 : v);
  }
  return set;
}

export function parse(expression) {
  const fields = (expression || '').trim().split(/\s+/);
  if (fields.length !== 5) return null;
  try {
    const sets = fields.map(parseField);
    return { fields, sets, domAny: fields[2] === '*', dowAny: fields[4] === '*' };
  } catch {
    return null;
  }
}

const FIELD_NAMES = ['minute', 'hour', 'day of the month', 'month', 'weekday'];

/**
 * Why an expression is not a schedule, in a person's words (the service's own for the same
 * mistakes), or null when it is one.
 */
export function problem(expression) {
  const fields = (expression || '').trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5) return `it has ${fields.length} parts; it needs five (minute hour day month weekday)`;
  for (let i = 0; i < 5; i++) {
    try {
      parseField(fields[i], i);
    } catch {
      return `its ${FIELD_NAMES[i]} is ${fields[i]}, which must be from ${RANGES[i][0]} to ${RANGES[i][1]}${i === 3 ? ' or a month’s name' : i === 4 ? ' or a day’s name' : ''}`;
    }
  }
  return null;
}

function matchesDay(cron, d) {
  const dom = cron.sets[2].has(d.getUTCDate());
  const dow = cron.sets[4].has(d.getUTCDay());
  if (cron.domAny && cron.dowAny) return true;
  if (cron.domAny) return dow;
  if (cron.dowAny) return dom;
  return dom || dow; // cron: either restricted day field may match
}

// A zone's wall clock as a Date whose UTC fields are the wall-clock fields, so the search below
// steps through the zone's days and hours with the UTC methods.
function wallClock(date, zone) {
  const fields = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' };
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', ...fields }).formatToParts(date);
  const n = Object.fromEntries(parts.map((p) => [p.type, Number(p.value)]));
  return new Date(Date.UTC(n.year, n.month - 1, n.day, n.hour, n.minute));
}

// The instant a wall-clock time names in the zone, or null when a daylight-saving change skips it
// (the service does not fire then either). A time that happens twice, when clocks go back, is its
// first occurrence, as the service fires it: the earliest instant up to three hours before the one
// found that shows the same wall clock.
function instantOf(wall, zone) {
  let t = wall.getTime();
  for (let i = 0; i < 3; i++) t = wall.getTime() - (wallClock(new Date(t), zone).getTime() - t);
  if (wallClock(new Date(t), zone).getTime() !== wall.getTime()) return null;
  const HALF_HOUR = 30 * 60000;
  for (let earlier = t - 6 * HALF_HOUR; earlier < t; earlier += HALF_HOUR) {
    if (wallClock(new Date(earlier), zone).getTime() === wall.getTime()) return new Date(earlier);
  }
  return new Date(t);
}

/** The known IANA time zone names, or [] where the browser cannot list them. */
export function timeZones() {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
}

/** This browser's time zone: what a new watch is offered. */
export const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * The next {@code count} fire times after {@code from} in {@code zone}, or [] for an invalid
 * expression or zone.
 */
export function nextTimes(expression, count = 3, from = new Date(), zone = 'UTC') {
  const cron = parse(expression);
  if (!cron) return [];
  try {
    return wallTimes(cron, count + 1, wallClock(from, zone))
      .map((w) => instantOf(w, zone))
      .filter((t) => t && t > from)
      .slice(0, count);
  } catch {
    return []; // not a zone this browser knows
  }
}

function wallTimes(cron, count, from) {
  const t = new Date(from.getTime());
  t.setUTCSeconds(0, 0);
  t.setUTCMinutes(t.getUTCMinutes() + 1);
  const out = [];
  const limit = from.getTime() + 5 * 366 * 86400000;
  while (out.length < count && t.getTime() < limit) {
    if (!cron.sets[3].has(t.getUTCMonth() + 1) || !matchesDay(cron, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0);
    } else if (!cron.sets[1].has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0);
    } else if (!cron.sets[0].has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1);
    } else {
      out.push(new Date(t.getTime()));
      t.setUTCMinutes(t.getUTCMinutes() + 1);
    }
  }
  return out;
}

const pad = (n) => String(n).padStart(2, '0');

/** The schedule in words, such as "every 6 hours" or "every day at 07:30 Europe/Berlin". */
export function describe(expression, zone = 'UTC') {
  const cron = parse(expression);
  if (!cron) return 'not a valid schedule';
  const [m, hr, dom, mon, dow] = cron.fields;
  const every = (field, unit) => {
    const s = /^\*\/(\d+)$/.exec(field);
    if (field === '*') return `every ${unit}`;
    return s ? (s[1] === '1' ? `every ${unit}` : `every ${s[1]} ${unit}s`) : null;
  };
  const single = (f) => /^\d+$/.test(f);
  if (dom === '*' && mon === '*' && dow === '*') {
    if (hr === '*' && every(m, 'minute')) return every(m, 'minute');
    if (single(m) && every(hr, 'hour')) return every(hr, 'hour');
    if (single(m) && single(hr)) return `every day at ${pad(hr)}:${pad(m)} ${zone}`;
    if (single(m) && /^\d+(,\d+)+$/.test(hr)) {
      const times = hr.split(',').map((x) => `${pad(x)}:${pad(m)}`);
      return `every day at ${times.slice(0, -1).join(', ')} and ${times[times.length - 1]} ${zone}`;
    }
  }
  if (single(m) && single(hr) && mon === '*' && dom === '*') {
    const at = `at ${pad(hr)}:${pad(m)} ${zone}`;
    if (dow === '1-5') return `on weekdays ${at}`;
    if (single(dow)) return `every ${DAY_NAMES[Number(dow) % 7]} ${at}`;
  }
  if (single(m) && single(hr) && single(dom) && mon === '*' && dow === '*')
    return `on day ${dom} of every month at ${pad(hr)}:${pad(m)} ${zone}`;
  return `on the schedule ${expression.trim()}`;
}

/** Presets the editor offers besides a raw expression. */
export const PRESETS = [
  ['Every hour', '0 * * * *'],
  ['Every 6 hours', '0 */6 * * *'],
  ['Every 12 hours', '0 */12 * * *'],
  ['Every day at 07:00', '0 7 * * *'],
  ['Weekdays at 07:00', '0 7 * * 1-5'],
  ['Every Monday at 07:00', '0 7 * * 1'],
];
