import { DEEP_LINK_SCHEME, parseDeepLink } from '../../../shared/deepLink';
import type { DeepLink } from '../../../shared/ipc/schemas/shell';
import type { Logger } from '../../base/logger';

/** Routes links from the OS (macOS open-url, a launch's or a second instance's argv) to whoever shows them. */
export interface DeepLinkRouter {
  /** A raw link: parsed strictly; a bad one is logged and dropped. Returns whether it was accepted. */
  handle(raw: unknown): boolean;
  /** The links among command-line arguments (Windows and Linux pass the clicked link as one). */
  handleArgv(argv: readonly string[]): void;
  /** Where accepted links go from now on; the latest link that came before is delivered at once. */
  connect(deliver: (link: DeepLink) => void): void;
}

const PREFIX = `${DEEP_LINK_SCHEME}:`;

/** Whether a command-line argument is meant as one of our links (anything else on the line is not ours to judge). */
export function isDeepLinkArg(arg: string): boolean {
  return arg.slice(0, PREFIX.length).toLowerCase() === PREFIX;
}

/**
 * Creates the router. Links can come before the app is ready (macOS opens the app with one), so until
 * `connect` the latest accepted link is kept; only the latest, since only one join screen can be prefilled.
 */
export function createDeepLinkRouter(logger: Logger): DeepLinkRouter {
  let deliver: ((link: DeepLink) => void) | null = null;
  let early: DeepLink | null = null;

  const handle = (raw: unknown): boolean => {
    const parsed = parseDeepLink(raw);
    if (!parsed.ok) {
      logger.warn(`ignored a link from the OS: ${parsed.reason}`);
      return false;
    }
    logger.info(`opening the join screen for room ${parsed.link.code} from a link`);
    if (deliver) deliver(parsed.link);
    else early = parsed.link;
    return true;
  };

  return {
    handle,
    handleArgv(argv) {
      for (const arg of argv) if (isDeepLinkArg(arg)) handle(arg);
    },
    connect(target) {
      deliver = target;
      if (early) target(early);
      early = null;
    },
  };
}
