import { centralAndStore, type CentralAndStore } from '../sync/helpers.js';

/** Head office with store PC 7 linked (not yet synced) and the goods the inventory sync tests move. */
export interface HeadOfficeWithProduct extends CentralAndStore {
  storeId: string;
  categoryId: string;
  productId: string;
}

/** Store "Main", category "Goods" and product P1 (price 1100, cost 120), made at head office. */
export async function headOfficeWithProduct(): Promise<HeadOfficeWithProduct> {
  const linked = await centralAndStore();
  const { central } = linked;
  try {
    const storeId = (await central.ok('POST', '/stores', { storeName: 'Main' })).storeId;
    const categoryId = (await central.ok('POST', '/categories', { categoryName: 'Goods' })).categoryId;
    const productId = (await central.ok('POST', '/products', { categoryId, productCode: 'P1', productName: 'Item', price: '1100', cost: '120' })).productId;
    return { ...linked, storeId, categoryId, productId };
  } catch (error) {
    await linked.close();
    throw error;
  }
}
