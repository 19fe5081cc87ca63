// A watch's source in words: its kind and what it names (for a page, the elements it watches).
const KINDS = { search: 'Search', rss: 'Feed', page: 'Page' };

/** "Feed", "Search" or "Page". */
export const sourceKind = (s) => KINDS[s.type] || s.type;

/** What the source names: "https://… · at #prices · ignoring .clock" for a page. */
export function sourceNamed(s) {
  const at = s.selector ? ` · at ${s.selector}` : '';
  const ignoring = s.ignore?.length ? ` · ignoring ${s.ignore.join(', ')}` : '';
  return `${s.value}${at}${ignoring}`;
}

/** "Feed: https://…". */
export const sourceWhat = (s) => `${sourceKind(s)}: ${sourceNamed(s)}`;
