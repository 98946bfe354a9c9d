import { pathToFileURL } from 'node:url';

/** Where the app's page comes from: the built index.html, or a dev server URL. */
export type AppLocation =
  { readonly kind: 'file'; readonly indexPath: string } | { readonly kind: 'url'; readonly url: string };

/**
 * The dev server URL when vite-plugin-electron provides one in a dev run, else the built file. The packaged app
 * always loads its own file: an environment variable set by whoever launches it must not hand a remote page
 * our preload bridge.
 */
export function resolveAppLocation(
  devServerUrl: string | undefined,
  indexPath: string,
  isPackaged: boolean,
): AppLocation {
  return devServerUrl && !isPackaged ? { kind: 'url', url: devServerUrl } : { kind: 'file', indexPath };
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** A predicate: is this URL our app's page (the same file, or the dev server's origin)? Hash and query ignored. */
export function createAppUrlPolicy(location: AppLocation): (url: string) => boolean {
  if (location.kind === 'file') {
    const expected = pathToFileURL(location.indexPath);
    const expectedPath = decodeURIComponent(expected.pathname);
    return (url) => {
      const actual = parse(url);
      if (!actual || actual.protocol !== 'file:' || actual.host !== expected.host) return false;
      try {
        return decodeURIComponent(actual.pathname) === expectedPath;
      } catch {
        return false;
      }
    };
  }
  const origin = new URL(location.url).origin;
  return (url) => {
    const actual = parse(url);
    return actual !== null && (actual.protocol === 'http:' || actual.protocol === 'https:') && actual.origin === origin;
  };
}
