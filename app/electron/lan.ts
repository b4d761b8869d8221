// The address the register terminals are set up with: this PC's LAN address and the server's
// port, shown in the tray so nobody has to look it up in the system settings.
import type { NetworkInterfaceInfo } from 'node:os';

const isPrivate = (a: string) => a.startsWith('10.') || a.startsWith('192.168.') || /^172\.(1[6-9]|2\d|3[01])\./.test(a);

/**
 * http://<address>:<port> for each IPv4 address of this PC a terminal could reach: private
 * (10/8, 172.16/12, 192.168/16) addresses first; loopback and link-local (169.254/16, no DHCP
 * server answered) ones never.
 */
export function terminalUrls(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>, port: number): string[] {
  const addresses = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((i) => i.family === 'IPv4' && !i.internal && !i.address.startsWith('169.254.'))
    .map((i) => i.address);
  const unique = [...new Set(addresses)];
  return [...unique.filter(isPrivate), ...unique.filter((a) => !isPrivate(a))].map((a) => `http://${a}:${port}`);
}
