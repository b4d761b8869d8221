import { useLang } from '../../i18n';
import { L, type Label, type NoteProps } from './spec';

/**
 * A staff member's back-office rights (server/http/rights.ts) are set by the CLI only
 * (`staff-password set --rights`), and no HTTP route reads them, so the form can only say which
 * rights exist and how to set them. The names are the CLI's.
 */
const RIGHTS: ReadonlyArray<readonly [string, Label]> = [
  ['staff_view', L('スタッフの参照', 'View staff')],
  ['staff_edit_all', L('スタッフの編集（すべて）', 'Edit staff (all)')],
  ['staff_edit_excluding_salary', L('スタッフの編集（給与以外）', 'Edit staff (excluding salary)')],
  ['staff_rank_edit', L('スタッフランクの編集', 'Edit staff ranks')],
  ['product_edit', L('商品・部門・メニューなどの編集', 'Edit products, categories, menus and the like')],
  ['customer_edit', L('会員・客層の編集', 'Edit members and customer groups')],
  ['sales_view', L('取引・精算・締めの参照', 'View sales, settlements and closings')],
  ['daily_closing', L('精算・日次締め・締めの解除', 'Settle, close and release a day')],
];

const TEXT = {
  title: L('権限とログイン', 'Rights and login'),
  body: L(
    'バックオフィスのパスワードと権限は、この画面や API では設定・表示できません。店舗サーバーのコマンドで設定します:',
    'The back-office password and rights cannot be set or shown here or through the API. Set them with the store server’s command:',
  ),
  rights: L('権限の一覧', 'The rights'),
};

export function StaffRightsNote({ row, contractId }: NoteProps) {
  const { lang } = useLang();
  const staffId = typeof row?.staffId === 'string' ? row.staffId : '<staffId>';
  return (
    <section aria-labelledby="staff-rights-title" className="staff-rights" data-testid="staff-rights">
      <h2 id="staff-rights-title">{TEXT.title[lang]}</h2>
      <p>{TEXT.body[lang]}</p>
      <pre>
        <code>{`npx pos-backoffice staff-password set --contract ${contractId} --staff ${staffId} --rights staff_view,product_edit`}</code>
      </pre>
      <details>
        <summary>{TEXT.rights[lang]}</summary>
        <dl>
          {RIGHTS.map(([name, label]) => (
            <div key={name}>
              <dt>
                <code>{name}</code>
              </dt>
              <dd>{label[lang]}</dd>
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
}
