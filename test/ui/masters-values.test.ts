import { describe, expect, it } from 'vitest';
import { linkRels } from '../../app/ui/src/shared/paging.js';
import { MASTER_KINDS } from '../../app/ui/src/screens/masters/kinds.js';
import type { Prop } from '../../app/ui/src/screens/masters/spec.js';
import { SPECS } from '../../app/ui/src/screens/masters/specs/index.js';
import { bodyOf, formValuesOf } from '../../app/ui/src/screens/masters/values.js';
import { propFor } from '../../app/ui/src/screens/masters/view.js';

/** The master screens' pure parts: what a form sends, how a Link header reads, every label present. */
describe('master form bodies', () => {
  const props: Record<string, Prop> = {
    name: { label: { ja: '名', en: 'Name' } },
    seq: { label: { ja: '順', en: 'Order' }, type: 'number' },
    admin: { label: { ja: '管', en: 'Admin' }, input: 'checkbox', type: 'boolean' },
    'rule.condition': { label: { ja: '範', en: 'Rule' } },
    'rule.min': { label: { ja: '最小', en: 'Min' }, type: 'number' },
    'rule.max': { label: { ja: '最大', en: 'Max' }, type: 'number' },
    items: { label: { ja: '項', en: 'Items' }, input: 'pairs', ref: 'productLabels' },
  };
  const prop = (n: string) => props[n]!;
  const fields = Object.keys(props);
  const spec = SPECS['topping-groups'];

  it('creates with the filled fields only, typed as the API wants them', () => {
    const values = { name: ' Sauces ', seq: '3', admin: false, 'rule.condition': '', 'rule.min': '', 'rule.max': '', items: '{"4":"Brazil","1":"Roasters"}' };
    expect(bodyOf(fields, values, null, prop)).toEqual({
      name: 'Sauces',
      seq: 3,
      admin: false,
      items: [
        { no: '1', value: 'Roasters' },
        { no: '4', value: 'Brazil' },
      ],
    });
  });

  it('updates only what changed; an emptied text is sent empty, an emptied number as null', () => {
    const row = { name: 'Pasta', seq: 2, admin: true, rule: { condition: 'all', min: 0, max: 3 }, items: [{ no: '1', value: 'x' }] };
    const initial = formValuesOf(spec, fields, row, prop);
    expect(initial).toMatchObject({ name: 'Pasta', seq: '2', admin: true, 'rule.condition': 'all', 'rule.min': '0', 'rule.max': '3', items: '{"1":"x"}' });
    expect(bodyOf(fields, initial, initial, prop)).toEqual({});
    expect(bodyOf(fields, { ...initial, name: '', seq: '' }, initial, prop)).toEqual({ name: '', seq: null });
    // A nested object is sent whole when a part changes, and as null when every part is emptied.
    expect(bodyOf(fields, { ...initial, 'rule.max': '5' }, initial, prop)).toEqual({ rule: { condition: 'all', min: 0, max: 5 } });
    expect(bodyOf(fields, { ...initial, 'rule.condition': '', 'rule.min': '', 'rule.max': '' }, initial, prop)).toEqual({ rule: null });
    // A text that is not a number goes as typed, so the API names it.
    expect(bodyOf(fields, { ...initial, seq: '1.5' }, initial, prop)).toEqual({ seq: '1.5' });
    expect(bodyOf(fields, { ...initial, items: '{}' }, initial, prop)).toEqual({ items: [] });
  });
});

describe('list paging', () => {
  it('reads prev and next from a Link header', () => {
    expect([...linkRels('<http://h/a?page=1>; rel="prev", <http://h/a?page=3>; rel="next"')]).toEqual(['prev', 'next']);
    expect([...linkRels(null)]).toEqual([]);
  });
});

describe('master kinds', () => {
  it('describes every kind, with ja and en labels for each column, field and filter', () => {
    for (const { kind } of MASTER_KINDS) {
      const spec = SPECS[kind];
      expect(spec.kind).toBe(kind);
      const prop = propFor(spec);
      const named = [...spec.columns, ...spec.form].map((n) => [n, prop(n)] as const);
      const filters = Object.entries(spec.filters ?? {}).map(([n, p]) => [n, p!] as const);
      for (const [name, p] of [...named, ...filters]) {
        expect(p.label.ja, `${kind} ${name}`).not.toBe(name);
        expect(p.label.en, `${kind} ${name}`).toBeTruthy();
      }
      // What can be edited needs an item path; a list under a store needs its scope.
      if (spec.update || spec.remove) expect(spec.item && spec.idParam, kind).toBeTruthy();
      if (spec.list.includes('{store_id}')) expect(spec.scope?.param, kind).toBe('store_id');
    }
  });
});
