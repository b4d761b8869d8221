// Types of build/electron-tools.mjs for the tests (test/electron/packaging.test.ts).
export declare const ROOT: string;
export declare const SHELL_OUT: string;
export declare function fail(message: string): never;
export declare function ensureElectronBinary(command: string, opts?: { timeoutMs?: number }): string;
export declare function electronBinary(): string | null;
export declare function runNode(args: string[], what: string): void;
export declare function compileShell(): void;
export declare function writeDevPackageJson(): void;
export declare function missingOutputs(opts: { ui: boolean }): string[];
export declare function nativeModules(config: { asarUnpack?: string[] }): string[];
export declare function keepNativeBuilds(root: string, names: string[]): () => void;
export declare const REBUILD_NODE: string;
export declare function nodeOlderThan(version: string, required?: string): boolean;
export declare function requireRebuildNode(command: string, version?: string): void;
export declare function electronVersion(root?: string): string;
export declare function useElectronBuilds(
  root: string,
  names: string[],
  version: string,
  rebuild: (options: { buildPath: string; electronVersion: string; onlyModules: string[]; force: boolean }) => Promise<unknown>,
): Promise<() => void>;
export declare function electronRebuild(): Promise<(options: { buildPath: string; electronVersion: string; onlyModules: string[]; force: boolean }) => Promise<unknown>>;
