import { call, useApi } from '../../../api/client';
import type { components } from '../../../api/schema';
import type { Choice } from '../../../components/FilterBar';
import { useLoad, type Loaded } from '../../../shared/load';
import { readAllPages } from '../../../shared/paging';
import { zonedInstant, zonedIso } from '../../../shared/zoned';

export type Loss = components['schemas']['Loss'];
export type LossDivision = components['schemas']['LossDivision'];

export interface Divisions {
  list: LossDivision[];
  choices: Choice[];
  /** `1 廃棄`, or the code when the division is gone. */
  label(code: string): string;
}

/** The contract's loss divisions (every page), for the forms' choices and the tables' names; `reload` after an edit. */
export function useDivisions(): Loaded<Divisions> & { reload(): void } {
  const { api, contract } = useApi();
  const loaded = useLoad(contract.contract_id, () =>
    readAllPages(
      (page) => call(api.GET('/{contract_id}/pos/loss_divisions', { params: { path: contract, query: { limit: '1000', page: String(page) } } })),
      { maxPages: 10 },
    ),
  );
  if (loaded.state !== 'done') return loaded;
  const list = loaded.data as LossDivision[];
  const byCode = new Map(list.map((d) => [d.divisionCode, d]));
  return {
    state: 'done',
    reload: loaded.reload,
    data: {
      list,
      choices: list.map((d) => ({ value: d.divisionCode, label: `${d.divisionCode} ${d.divisionName}` })),
      label: (code) => (byCode.has(code) ? `${code} ${byCode.get(code)!.divisionName}` : code),
    },
  };
}

const WALL = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/;

/** A datetime-local value in the contract's zone as the API's date-time; anything else as typed, for the API to name. */
export const wallToIso = (value: string, zone: string) => {
  const m = WALL.exec(value);
  return m ? zonedIso(zonedInstant(m[1]!, m[2]!, zone), zone) : value;
};

/** Now in the contract's zone as a datetime-local value (`2026-11-22T10:00`). */
export const nowWall = (zone: string) => zonedIso(Date.now(), zone).slice(0, 16);
