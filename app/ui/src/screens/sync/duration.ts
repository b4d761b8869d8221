/** 3 h 2 min, 4 min 5 s, 12 s (ja: 3時間2分, 4分5秒, 12秒): the two largest units. */
export function duration(ms: number, lang: 'ja' | 'en'): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const units: [number, string, string][] = [
    [Math.floor(s / 86400), '日', 'd'],
    [Math.floor((s % 86400) / 3600), '時間', 'h'],
    [Math.floor((s % 3600) / 60), '分', 'min'],
    [s % 60, '秒', 's'],
  ];
  const first = units.findIndex(([n]) => n > 0);
  const shown = first < 0 ? [units[3]!] : units.slice(first, first + 2).filter(([n], i) => i === 0 || n > 0);
  return shown.map(([n, ja, en]) => (lang === 'ja' ? `${n}${ja}` : `${n} ${en}`)).join(lang === 'ja' ? '' : ' ');
}

/** Clock skew with its sign: +27 ms, -1.4 s (ja: ミリ秒, 秒); under a second in ms, so no "-0.0". */
export function skew(ms: number, lang: 'ja' | 'en'): string {
  const sign = ms > 0 ? '+' : '';
  if (Math.abs(ms) < 1000) return `${sign}${Math.round(ms)}${lang === 'ja' ? ' ミリ秒' : ' ms'}`;
  return `${sign}${(ms / 1000).toFixed(Math.abs(ms) < 10_000 ? 1 : 0)}${lang === 'ja' ? ' 秒' : ' s'}`;
}
