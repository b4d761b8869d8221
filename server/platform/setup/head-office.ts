import type { Plan } from '../../domain/plans.js';
import { BadRequest } from '../http/problem.js';

/**
 * What the setup screen's head-office way needs from the sync module: its headOfficeLink
 * (server/modules.ts), handed to buildApp, so that server/ does not import sync/ (DESIGN §2).
 */
export interface HeadOfficeInput {
  centralUrl: string;
  contractId: string;
  node: number;
  secret: string;
  /** Plain http to a public address, as `link --insecure`. */
  insecure: boolean;
}

export interface HeadOfficeLinked {
  contract: { contractId: string; name: string; plan: Plan; timeZone: string };
  node: number;
  clockSkewMs: number;
  /** This PC's clock is over 5 minutes off central's. */
  warning?: string;
}

/** A link's first pull as the setup screen follows it. */
export interface LinkProgress {
  contractId: string;
  centralUrl: string;
  node: number;
  online: boolean;
  /** ms since the epoch, or null before the first page. */
  lastPullAt: number | null;
  /** A pull has found nothing more at central: every master is here. */
  caughtUp: boolean;
  lastError: string | null;
}

export interface HeadOfficeLink {
  /**
   * Checks the link with central and saves it as `pos-backoffice link` does, the contract taken
   * from central; `beforeSave` runs in the saving transaction and may refuse it. The running
   * server then mints with the node central knows it by. A refusal is a 400 naming the field.
   */
  link(input: HeadOfficeInput, beforeSave: () => void): Promise<HeadOfficeLinked>;
  /** The link of this data dir (a store set up from the screen has one), or undefined. */
  progress(): LinkProgress | undefined;
}

/** A server started without a module that links to head office (server/modules.ts): only a shop on its own can be set up. */
export const NO_HEAD_OFFICE: HeadOfficeLink = {
  async link() {
    throw BadRequest.field('centralUrl', 'this server was started without sync: it cannot connect to head office');
  },
  progress: () => undefined,
};
