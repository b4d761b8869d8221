import { UsageError } from '../server/cli/errors.js';
import { contractOption, intOption } from '../server/cli/options.js';
import { defineCommand, type CliCommand, type Io } from '../server/modules.js';
import * as sync from './cli.js';

/** The sync commands (issue 11) as the CLI lists, parses and runs them; one JSON line per result. */

const json = (io: Io, value: unknown) => io.out(JSON.stringify(value));
const contract = { contract: { type: 'string' } } as const;

/** A store's node number (DESIGN §4: central is 0, stores 1..999). */
function storeNode(value: string | undefined): number {
  if (value === undefined) throw new UsageError('--node is required');
  return intOption('--node', value, 1, 999);
}

/** --contract when given (commands that otherwise take every contract). */
const someContract = (value: string | undefined): { contract?: string } => (value !== undefined ? { contract: contractOption(value, '--contract') } : {});

export const SYNC_COMMANDS: readonly CliCommand[] = [
  defineCommand({
    name: 'node add',
    usage: "node add --contract ID --node N [--name NAME]     (central: prints the node's secret once)",
    options: { ...contract, node: { type: 'string' }, name: { type: 'string' } },
    parse: (v) => ({ contract: contractOption(v.contract, '--contract'), node: storeNode(v.node), ...(v.name ? { nodeName: v.name } : {}) }),
    run: (deps, c: { contract: string; node: number; nodeName?: string }, io) => json(io, sync.nodeAdd(deps, c.contract, c.node, c.nodeName)),
  }),
  defineCommand({
    name: 'node list',
    usage: 'node list [--contract ID]',
    options: contract,
    parse: (v) => someContract(v.contract),
    run: (deps, c, io) => sync.nodeList(deps, c.contract).forEach((n) => json(io, n)),
  }),
  defineCommand({
    name: 'node revoke',
    usage: 'node revoke --contract ID --node N',
    options: { ...contract, node: { type: 'string' } },
    parse: (v) => ({ contract: contractOption(v.contract, '--contract'), node: storeNode(v.node) }),
    run: (deps, c, io) => json(io, sync.nodeRevoke(deps, c.contract, c.node)),
  }),
  defineCommand({
    name: 'link',
    usage: `link --central URL --contract ID --node N --secret S [--insecure] [--offline]
               (store; checked with central first, the contract taken from central where missing;
               plain http only to loopback or private LAN addresses unless --insecure;
               --offline saves it unchecked, the first push checks it)`,
    options: { central: { type: 'string' }, ...contract, node: { type: 'string' }, secret: { type: 'string' }, insecure: { type: 'boolean' }, offline: { type: 'boolean' } },
    parse(v) {
      if (!v.central) throw new UsageError('--central is required');
      if (!v.secret) throw new UsageError('--secret is required');
      return { central: v.central, contract: contractOption(v.contract, '--contract'), node: storeNode(v.node), secret: v.secret, insecure: v.insecure ?? false, offline: v.offline ?? false };
    },
    async run(deps, c, io) {
      const { central, contract: contractId, node, secret, insecure, offline } = c;
      json(io, await sync.link(deps, { central, contractId, node, secret, insecure, offline }));
    },
  }),
  defineCommand({
    name: 'unlink',
    usage: 'unlink --contract ID',
    options: contract,
    parse: (v) => ({ contract: contractOption(v.contract, '--contract') }),
    run: (deps, c, io) => json(io, sync.unlink(deps, c.contract)),
  }),
  defineCommand({
    name: 'sync status',
    usage: 'sync status [--contract ID]',
    options: contract,
    parse: (v) => someContract(v.contract),
    run: (deps, c, io) => sync.status(deps, c.contract).forEach((s) => json(io, s)),
  }),
  defineCommand({
    name: 'sync dead-letters',
    usage: 'sync dead-letters --contract ID [--retry DEAD_LETTER_ID | --discard DEAD_LETTER_ID]',
    options: { ...contract, retry: { type: 'string' }, discard: { type: 'string' } },
    parse(v) {
      if (v.retry !== undefined && v.discard !== undefined) throw new UsageError('give --retry or --discard, not both');
      return {
        contract: contractOption(v.contract, '--contract'),
        ...(v.retry !== undefined ? { retry: intOption('--retry', v.retry, 1, Number.MAX_SAFE_INTEGER) } : {}),
        ...(v.discard !== undefined ? { discard: intOption('--discard', v.discard, 1, Number.MAX_SAFE_INTEGER) } : {}),
      };
    },
    run: (deps, c: { contract: string; retry?: number; discard?: number }, io) =>
      sync.deadLetters(deps, c.contract, { retry: c.retry, discard: c.discard }).forEach((d) => json(io, d)),
  }),
];
