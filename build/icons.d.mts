// Types of build/icons.mjs for the tests (test/electron/packaging.test.ts).
export declare const ICONS_DIR: string;
export declare const TRAY_COLOURS: Record<'ok' | 'warn' | 'error', string>;
export declare function encodePng(size: number, rgba: Buffer): Buffer;
export declare function appIcon(size: number): Buffer;
export declare function trayIcon(size: number, state: 'ok' | 'warn' | 'error'): Buffer;
export declare function allIcons(): Record<string, Buffer>;
