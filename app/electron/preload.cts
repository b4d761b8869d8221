// Sandboxed preload: CommonJS, one file, `electron` the only import (a sandbox gives nothing
// else). It exposes bridge.ts's PosDesktopBridge and nothing more; main.ts checks the sender.
import electron = require('electron');
import type { BridgeChannel, PosDesktopBridge } from './bridge.js';

// The same strings as bridge.ts CHANNELS (a sandboxed preload cannot load it); the type keeps them equal.
const info: BridgeChannel = 'pos-desktop:info';
const openDataFolder: BridgeChannel = 'pos-desktop:open-data-folder';
const openInBrowser: BridgeChannel = 'pos-desktop:open-in-browser';

const bridge: PosDesktopBridge = {
  info: () => electron.ipcRenderer.invoke(info),
  openDataFolder: () => electron.ipcRenderer.invoke(openDataFolder),
  openInBrowser: () => electron.ipcRenderer.invoke(openInBrowser),
};

electron.contextBridge.exposeInMainWorld('posDesktop', bridge);
