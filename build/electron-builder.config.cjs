// electron-builder configuration for the desktop app (`npm run dist`, build/dist.mjs).
// One package.json for server, UI and shell: the app is the project directory, filtered to the
// compiled output; electron-builder adds the production dependencies (package.json
// "dependencies") from node_modules by itself.

/** Native modules: rebuilt for Electron's ABI by electron-builder and kept out of the asar. */
const NATIVE_MODULES = ['better-sqlite3'];

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'app.posbackoffice.desktop',
  productName: 'POS Backoffice',
  directories: {
    output: 'release',
    // Icons go here (icon.png / icon.ico / icon.icns); without them Electron's default is used.
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
    // The server and sync code, the SQL migrations beside the migrator, the built UI.
    'dist/server/**/*',
    'dist/sync/**/*',
    'dist/server/db/migrations/**/*',
    'dist/ui/**/*',
    '!**/*.map',
    // better-sqlite3's sources and intermediate objects are not needed at run time.
    '!**/node_modules/better-sqlite3/{deps,src}/**/*',
    '!**/node_modules/better-sqlite3/build/Release/{obj,obj.target,.deps}/**/*',
    '!**/node_modules/better-sqlite3/build/Release/*.a',
    '!**/node_modules/better-sqlite3/build/Release/test_extension.node',
  ],
  asar: true,
  // A .node file cannot be loaded from inside an asar archive; Electron redirects to app.asar.unpacked.
  asarUnpack: NATIVE_MODULES.map((m) => `**/node_modules/${m}/**/*`),
  // Rebuild native modules for Electron when packing (never at npm install: the tests run them
  // in Node). Prebuilt Electron binaries are used when available, else compiled from source.
  npmRebuild: true,
  nodeGypRebuild: false,
  buildDependenciesFromSource: false,
  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
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
  },
  dmg: {
    artifactName: '${productName}-${version}-${arch}.${ext}',
  },
  linux: {
    target: [{ target: 'AppImage', arch: ['x64'] }],
    category: 'Office',
  },
  appImage: {
    artifactName: '${productName}-${version}-${arch}.${ext}',
  },
  // Publishing is not part of this project's release; build/dist.mjs passes --publish never.
  publish: null,
};
