import { useState, type FormEvent } from 'react';
import { call, useApi, type Result } from '../../../api/client';
import { fieldError, type ProblemView } from '../../../api/problem';
import type { components } from '../../../api/schema';
import { Field } from '../../../components/Field';
import { FormProblem } from '../../../components/FormProblem';
import { Loading } from '../../../components/LoadState';
import { SelectField } from '../../../components/SelectField';
import { useT } from '../../../i18n';
import { Link, navigate } from '../../../router';
import { useFormat } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import { readAllPages } from '../../../shared/paging';
import type { Refs } from '../data';
import { messages } from './i18n';

type Category = Pick<components['schemas']['Category'], 'categoryId' | 'categoryName' | 'parentCategoryId'>;
type Target = '0' | '1';

const FIELDS = ['storeId', 'stocktakingDate', 'targetDivision', 'categoryIds', 'memo'];

/**
 * A new stocktaking: the store, the day counted and what is counted — every product, or the
 * products of chosen categories (their child categories too). It starts counting at once.
 */
export function StocktakingCreate({ refs }: { refs: Refs }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const categories = useLoad(contract.contract_id, () =>
    readAllPages((page) => call(api.GET('/{contract_id}/pos/categories', { params: { path: contract, query: { limit: '1000', page: String(page), fields: 'categoryId,categoryName,parentCategoryId' } } })) as Promise<Result<Category[]>>, { maxPages: 10 }),
  );
  const [storeId, setStoreId] = useState(refs.stores[0]?.storeId ?? '');
  const [date, setDate] = useState(format.today());
  const [target, setTarget] = useState<Target>('0');
  const [chosen, setChosen] = useState<string[]>([]);
  const [memo, setMemo] = useState('');
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [busy, setBusy] = useState(false);
  const err = (f: string) => fieldError(problem, f);
  const toggle = (id: string) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    const r = await call(
      api.POST('/{contract_id}/pos/stocktaking', {
        params: { path: contract },
        body: { storeId, stocktakingDate: date, targetDivision: target, ...(target === '1' ? { categoryIds: chosen } : {}), ...(memo.trim() ? { memo: memo.trim() } : {}) },
      }),
    );
    setBusy(false);
    if (!r.ok) return setProblem(r.problem);
    navigate(`/inventory/stocktaking/${r.data.stocktakingInfoId}?created=1`);
  };

  return (
    <form onSubmit={submit} className="inv-form" noValidate data-testid="stocktaking-create">
      <p>
        <Link to="/inventory/stocktaking">← {t('inv.back')}</Link>
      </p>
      <h2>{t('stk.new')}</h2>
      <FormProblem problem={problem} shown={FIELDS} />
      <div className="inv-grid">
        <SelectField label={t('inv.store')} name="storeId" value={storeId} onChange={setStoreId} options={refs.storeChoices} error={err('storeId')} required />
        <Field label={t('stk.date')} name="stocktakingDate" type="date" value={date} onChange={(e) => setDate(e.target.value)} error={err('stocktakingDate')} required />
      </div>
      <fieldset className="inv-fieldset" data-field="targetDivision">
        <legend>{t('stk.target')}</legend>
        {(['0', '1'] as const).map((d) => (
          <label key={d}>
            <input type="radio" name="targetDivision" value={d} checked={target === d} onChange={() => setTarget(d)} />
            {t(`stk.target.${d}`)}
          </label>
        ))}
      </fieldset>
      {target === '1' ? (
        <fieldset className="inv-fieldset stk-categories" data-field="categoryIds" aria-describedby="stk-categories-hint">
          <legend>{t('stk.categories')}</legend>
          {categories.state === 'done' ? (
            categories.data.length ? (
              <CategoryChoices categories={categories.data} chosen={chosen} toggle={toggle} />
            ) : (
              <p className="inv-muted">{t('stk.noCategories')}</p>
            )
          ) : categories.state === 'error' ? (
            <FormProblem problem={categories.problem} />
          ) : (
            <Loading />
          )}
          {err('categoryIds') ? <small className="field-error">{err('categoryIds')}</small> : null}
          <small id="stk-categories-hint">{t('stk.categoriesHint')}</small>
        </fieldset>
      ) : null}
      <Field label={t('stk.memo')} name="memo" value={memo} onChange={(e) => setMemo(e.target.value)} error={err('memo')} />
      <button type="submit" disabled={busy} aria-busy={busy}>
        {t('stk.register')}
      </button>
    </form>
  );
}

/** The categories as checkboxes, each child under its parent (indented by level). */
function CategoryChoices({ categories, chosen, toggle }: { categories: Category[]; chosen: string[]; toggle(id: string): void }) {
  const children = new Map<string | null, Category[]>();
  for (const c of categories) {
    const parent = c.parentCategoryId && categories.some((p) => p.categoryId === c.parentCategoryId) ? c.parentCategoryId : null;
    children.set(parent, [...(children.get(parent) ?? []), c]);
  }
  const ordered: { category: Category; depth: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const c of children.get(parent) ?? []) {
      ordered.push({ category: c, depth });
      if (depth < 3) walk(c.categoryId, depth + 1);
    }
  };
  walk(null, 0);
  return (
    <div className="stk-category-list">
      {ordered.map(({ category, depth }) => (
        <label key={category.categoryId} style={{ paddingInlineStart: `${depth * 1.5}rem` }}>
          <input type="checkbox" name="categoryIds" value={category.categoryId} checked={chosen.includes(category.categoryId)} onChange={() => toggle(category.categoryId)} />
          {category.categoryName}
        </label>
      ))}
    </div>
  );
}
