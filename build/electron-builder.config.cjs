// electron-builder configuration for the desktop app (`npm run dist`, build/dist.mjs).
// One package.json for server, UI and shell: the app is the project directory, filtered to the
// compiled output; electron-builder adds the production dependencies (package.json
// "dependencies") from node_modules by itself.

/** Native modules: rebuilt for Electron's ABI by electron-builder (build/dist.mjs keeps the Node build). */
const NATIVE_MODULES = ['better-sqlite3'];

/**
 * What the server process loads, unpacked from the asar: the shell starts the server as plain
 * Node (Electron run as Node, app/electron/server-process.ts) from app.asar.unpacked, and plain
 * Node cannot read an asar archive; neither can the server's worker threads (the CSV export's
 * two) nor its static files (the UI). package.json makes dist/ ES modules there, the guard
 * is preloaded into the server, the icons are read by the tray. Only the shell stays in the asar.
 */
const UNPACKED = [
  'package.json',
  'dist/main.js',
  'dist/server/**/*',
  'dist/sync/**/*',
  'dist/ui/**/*',
  'dist/electron/server-guard.cjs',
  'build/icons/**/*',
  ...NATIVE_MODULES.map((m) => `**/node_modules/${m}/**/*`),
  // The server's production dependencies (package.json "dependencies").
  '**/node_modules/**/*',
];

/** The installers' icon; electron-builder makes .ico (Windows) and .icns (macOS) from it. */
const ICON = 'build/icons/icon.png';

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'app.posbackoffice.desktop',
  productName: 'POS Backoffice',
  directories: {
    output: 'release',
    buildResources: 'build/resources',
  },
  // package.json has no "main" (it is the server's CLI package): the packaged copy gets the shell's.
  extraMetadata: {
    main: 'dist/electron/main.js',
    productName: 'POS Backoffice',
  },
  files: [
    'package.json',
    // The shell (main ESM, preload CommonJS), from app/electron via build/electron-tools.mjs.
    'dist/electron/**/*',
    '!dist/electron/package.json',
    // The CLI entry (the composition root), the server and sync code, the SQL migrations beside
    // the migrator, the built UI.
    'dist/main.js',
    'dist/server/**/*',
    'dist/sync/**/*',
    'dist/server/db/migrations/**/*',
    'dist/ui/**/*',
    // The tray's icons (build/icons.mjs draws them).
    'build/icons/**/*',
    '!**/*.map',
    // better-sqlite3's sources and intermediate objects are not needed at run time.
    '!**/node_modules/better-sqlite3/{deps,src}/**/*',
    '!**/node_modules/better-sqlite3/build/Release/{obj,obj.target,.deps}/**/*',
    '!**/node_modules/better-sqlite3/build/Release/*.a',
    '!**/node_modules/better-sqlite3/build/Release/test_extension.node',
  ],
  asar: true,
  asarUnpack: UNPACKED,
  // Rebuild native modules for Electron when packing (never at npm install: the tests run them
  // in Node). Prebuilt Electron binaries are used when available, else compiled from source.
  npmRebuild: true,
  nodeGypRebuild: false,
  buildDependenciesFromSource: false,
  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
    icon: ICON,
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    // The store's data lives in userData, never in the install folder: keep it on uninstall.
    deleteAppDataOnUninstall: false,
    artifactName: '${productName}-Setup-${version}.${ext}',
  },
  mac: {
    target: [{ target: 'dmg' }],
    category: 'public.app-category.business',
    icon: ICON,
  },
  dmg: {
    artifactName: '${productName}-${version}-${arch}.${ext}',
  },
  linux: {
    // The deb installs under /opt and into the system menu; the AppImage runs from anywhere.
    target: [
      { target: 'AppImage', arch: ['x64'] },
      { target: 'deb', arch: ['x64'] },
    ],
    category: 'Office',
    icon: ICON,
    executableName: 'pos-backoffice',
    // A deb names its maintainer; package.json has no author to take it from.
    maintainer: 'POS Backoffice maintainers',
    synopsis: 'Store back office and the register terminals\' local server',
  },
  appImage: {
    artifactName: '${productName}-${version}-${arch}.${ext}',
  },
  deb: {
    artifactName: '${name}_${version}_${arch}.${ext}',
    packageCategory: 'office',
  },
  // Publishing is not part of this project's release; build/dist.mjs passes --publish never.
  publish: null,
};
