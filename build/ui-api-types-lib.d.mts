export const SCHEMA_FILE: string;
export function generateApiTypes(server: {
  buildApp: (deps: any) => Promise<{ inject(options: { method: string; url: string }): Promise<{ statusCode: number; body: string; json(): unknown }>; close(): Promise<unknown> }>;
  openDeps: (options: { file: string }) => { db: { close(): unknown } };
}): Promise<string>;
