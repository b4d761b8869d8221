import { useEffect, useState } from 'react';
import { call, useApi } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import type { components } from '../../api/schema';
import { DataTable } from '../../components/DataTable';
import { Facts } from '../../components/Facts';
import { FormProblem } from '../../components/FormProblem';
import { Loading } from '../../components/LoadState';
import { useT } from '../../i18n';
import { Link, type ScreenProps } from '../../router';
import { useSession } from '../../session';
import { useFormat } from '../../shared/format';
import { readAllPages } from '../../shared/paging';
import { wallClock, zonedIso } from '../../shared/zoned';
import { messages } from './i18n';
import { itemAmount, itemCount, orderTotal, ordersTotal, type OrderItem } from './orderTotals';
import { RESTAURANT_MAX_PAGES, type Order, type Reservation } from './useDayData';

type TableUseHead = components['schemas']['TableUseWithOrders'];

interface Loaded {
  head: TableUseHead;
  orders: Order[];
  storeName: string | null;
  reservation: Reservation | null;
}

const DAY_MS = 86_400_000;

/**
 * The orders of one table use (`#/reservations/table-uses/<id>`): its head (tables, party, start,
 * status) and every order with its items and totals. The API gives a table use no party or start
 * time: the party is the reservation seated at it (found among the store's reservations within a
 * day of its first order; Food Business only), the start is its first order.
 */
export function TableUseOrdersScreen({ params }: ScreenProps) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const plan = useSession().session?.plan;
  const id = params.tableUseId ?? '';
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [problem, setProblem] = useState<ProblemView | null>(null);

  useEffect(() => {
    let live = true;
    setLoaded(null);
    setProblem(null);
    void (async () => {
      const head = await call(api.GET('/{contract_id}/waiter/table_uses/{table_use_id}', { params: { path: { ...contract, table_use_id: id } } }));
      if (!live) return;
      if (!head.ok) return setProblem(head.problem);
      const [orders, store] = await Promise.all([
        readAllPages((page) => call(api.GET('/{contract_id}/waiter/orders', { params: { path: contract, query: { table_use_id: id, limit: '100', page: String(page) } } })), { maxPages: RESTAURANT_MAX_PAGES }),
        call(api.GET('/{contract_id}/pos/stores/{store_id}', { params: { path: { ...contract, store_id: head.data.storeId } } })),
      ]);
      if (!live) return;
      if (!orders.ok) return setProblem(orders.problem);
      const first = orders.data[0]?.ordered;
      let reservation: Reservation | null = null;
      if (first && plan === 'food_business') {
        const at = Date.parse(first);
        const found = await readAllPages((page) =>
          call(
            api.GET('/{contract_id}/waiter/reservations', {
              params: {
                path: contract,
                query: {
                  store_id: head.data.storeId,
                  start_at_from: zonedIso(at - DAY_MS, format.timeZone),
                  start_at_to: zonedIso(at + DAY_MS, format.timeZone),
                  limit: '100',
                  page: String(page),
                },
              },
            }),
          ),
          { maxPages: RESTAURANT_MAX_PAGES },
        );
        reservation = found.ok ? (found.data.find((r) => r.tableUseId === id) ?? null) : null;
      }
      if (!live) return;
      setLoaded({ head: head.data, orders: orders.data, storeName: store.ok ? store.data.storeName : null, reservation });
    })();
    return () => {
      live = false;
    };
  }, [api, contract, id, plan, format.timeZone]);

  const first = loaded?.orders[0]?.ordered;
  const day = first ? wallClock(Date.parse(first), format.timeZone).date : null;
  const back = day && loaded ? `/reservations?date=${day}&store=${encodeURIComponent(loaded.head.storeId)}` : '/reservations';

  return (
    <section className="table-use">
      <p>
        <Link to={back}>← {day ? t('tableUse.back', { date: format.date(day) }) : t('tableUse.backPlain')}</Link>
      </p>
      <h1>{t('reservations.orders', { id })}</h1>
      <FormProblem problem={problem} />
      {!loaded && !problem ? <Loading /> : null}
      {loaded ? (
        <>
          <TableUseHeadView loaded={loaded} />
          {loaded.orders.length === 0 ? <p>{t('tableUse.noOrders')}</p> : null}
          {loaded.orders.map((order) => (
            <OrderView key={order.orderId} order={order} />
          ))}
          {loaded.orders.length ? (
            <article className="table-use-total">
              <dl>
                <dt>{t('tableUse.total')}</dt>
                <dd className="num" data-testid="table-use-total">
                  {format.yen(ordersTotal(loaded.orders).toFixed())}
                </dd>
                <dt className="visually-hidden">{t('tableUse.quantity')}</dt>
                <dd>{t('tableUse.itemCount', { count: itemCount(loaded.orders) })}</dd>
              </dl>
              <small>{t('tableUse.totalNote')}</small>
            </article>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function TableUseHeadView({ loaded }: { loaded: Loaded }) {
  const t = useT(messages);
  const format = useFormat();
  const { head, reservation, orders, storeName } = loaded;
  const party = reservation
    ? `${t('reservations.partyShort', { count: reservation.persons.adults + reservation.persons.children })} (${t('reservations.partyValue', reservation.persons)})`
    : t('tableUse.partyUnknown');
  return (
    <article aria-label={t('tableUse.head')} className="table-use-head">
      <Facts
        items={[
          { label: t('reservations.tables'), value: head.tables.map((tb) => tb.name).join(', '), valueProps: { 'data-testid': 'table-use-tables' } },
          { label: t('tableUse.party'), value: party },
          { label: t('tableUse.start'), value: orders[0] ? format.dateTime(orders[0].ordered) : '—' },
          { label: t('reservations.status'), value: t(`tableUse.status.${head.status}`), valueProps: { 'data-testid': 'table-use-status' } },
          { label: t('tableUse.store'), value: storeName ?? head.storeId },
          reservation && {
            label: t('tableUse.reservation'),
            value: (
              <>
                {reservation.reservationPersonName ?? t('reservations.nameless')} ({format.time(reservation.startAt)}–{format.time(reservation.endAt)})
              </>
            ),
          },
        ]}
      />
    </article>
  );
}

function OrderView({ order }: { order: Order }) {
  const t = useT(messages);
  const format = useFormat();
  const caption = t('tableUse.order', { id: order.orderId, time: format.dateTime(order.ordered) });
  return (
    <div className="overflow-auto">
      <DataTable
        className="striped table-use-order"
        data-order={order.orderId}
        caption={caption}
        columns={[
          { key: 'menu', header: t('tableUse.menu') },
          { key: 'quantity', header: t('tableUse.quantity'), num: true },
          { key: 'unitPrice', header: t('tableUse.unitPrice'), num: true },
          { key: 'discount', header: t('tableUse.discount'), num: true },
          { key: 'amount', header: t('tableUse.amount'), num: true },
          { key: 'status', header: t('tableUse.itemStatus') },
        ]}
        foot={
          <tr>
            <th scope="row" colSpan={4}>
              {t('tableUse.orderTotal')}
            </th>
            <td className="num" data-testid="order-total">
              {format.yen(orderTotal(order).toFixed())}
            </td>
            <td />
          </tr>
        }
      >
        {order.items.map((item) => (
          <ItemRow key={item.id} item={item} />
        ))}
      </DataTable>
    </div>
  );
}

function ItemRow({ item }: { item: OrderItem }) {
  const t = useT(messages);
  const format = useFormat();
  const taxation = item.sellingPrice.taxation === 'excluded' ? t('tableUse.taxExcluded') : item.sellingPrice.taxation === 'none' ? t('tableUse.taxNone') : null;
  const canceled = item.status === 'canceled';
  return (
    <tr data-item={item.id} className={canceled ? 'item-canceled' : undefined}>
      <td>
        {canceled ? <del>{item.name}</del> : item.name}
        {item.toppings.map((s, i) => (
          <div key={`t${i}`} className="sub-item">
            {t('tableUse.topping', { name: s.name, quantity: s.quantity })} {format.yen(s.amount)}
          </div>
        ))}
        {item.courseItems.map((s, i) => (
          <div key={`c${i}`} className="sub-item">
            {t('tableUse.course', { name: s.name, quantity: s.quantity })} {Number(s.amount) ? format.yen(s.amount) : ''}
          </div>
        ))}
        {item.memo ? <div className="sub-item">{item.memo}</div> : null}
      </td>
      <td className="num">{item.quantity}</td>
      <td className="num">
        {format.yen(item.sellingPrice.amount)}
        {taxation ? <small> ({taxation})</small> : null}
      </td>
      <td className="num">{item.discount ? `−${format.yen(item.discount.amount)}` : ''}</td>
      <td className="num">{format.yen(itemAmount(item).toFixed())}</td>
      <td>
        {t(`item.status.${item.status}`)}
        {item.servedAt ? <small> {format.time(item.servedAt)}</small> : null}
      </td>
    </tr>
  );
}
