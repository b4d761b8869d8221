export const OPERATIONS_DOC: string;
export interface OperationRow {
  api: 'pos' | 'waiter';
  method: string;
  path: string;
  served: boolean;
}
export function operationRows(text: string): OperationRow[];
export function operationKey(api: string, method: string, path: string): string;
export function servedOperations(doc: { paths: Record<string, Record<string, unknown>> }): Set<string>;
