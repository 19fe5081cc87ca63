// How often a watch is right, as a person reads it: GET /watches/:id/quality in sentences. A share
// the service gives as null rests on too few labels; the sentence says how many more it needs.
const percent = (v) => `${Math.round(v * 100)}%`;
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

function precision(p, min) {
  if (!p.labels) return 'You have not rated any of its alerts yet.';
  if (p.value === null) {
    return `You rated ${plural(p.labels, 'alert', 'alerts')} (${p.hits} useful); rate at least ${min} to see how often its alerts are useful.`;
  }
  return `Of the ${plural(p.labels, 'alert', 'alerts')} you rated, ${p.hits} ${p.hits === 1 ? 'was' : 'were'} useful (${percent(p.value)}).`;
}

function recall(r, min) {
  if (!r.labels) return 'Mark the items it should alert on to see how many it catches.';
  if (r.value === null) {
    return `Of the ${plural(r.labels, 'item', 'items')} you said it should alert on, ${r.hits} alerted; mark at least ${min} to see how many it catches.`;
  }
  return `Of the ${plural(r.labels, 'item', 'items')} you said it should alert on, ${r.hits} alerted (${percent(r.value)}).`;
}

/** "In the last 90 days: Of the 12 alerts you rated, 10 were useful (83%). …" */
export function qualitySentence(quality) {
  const [month, quarter] = quality.windows;
  const given = (w) => w.feedback.useful + w.feedback.wrong + w.feedback.missed;
  if (!given(quarter))
    return 'No feedback on its runs in the last 90 days: rate its runs below to see how often it is right.';
  const f = month.feedback;
  return [
    `In the last 90 days: ${precision(quarter.precision, quality.minimumLabels)} ${recall(quarter.recall, quality.minimumLabels)}`,
    `In the last 30 days you said ${f.useful} useful, ${f.wrong} wrong and ${f.missed} missed.`,
  ].join(' ');
}
