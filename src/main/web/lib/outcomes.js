// Words for what runs concluded.
import { h } from 'preact';

export const OUTCOMES = {
  'nothing-new': 'Nothing new',
  'no-match': 'No match',
  'weak-alert': 'Weak alert',
  alert: 'Alert',
  error: 'Error',
};

export const Outcome = ({ outcome }) =>
  h('span', { class: `badge outcome-${outcome}` }, OUTCOMES[outcome] || outcome);

export const TIERS = [
  ['official', 'Official'],
  ['established', 'Established'],
  ['community', 'Community'],
  ['unverified', 'Unverified'],
];
