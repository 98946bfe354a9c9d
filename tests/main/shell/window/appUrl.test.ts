import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAppUrlPolicy, resolveAppLocation } from '../../../../main/shell/window/appUrl';

describe('app URL policy', () => {
  const indexPath = '/opt/LAN Party/resources/dist/renderer/index.html';
  const fileUrl = pathToFileURL(indexPath).href;

  it('accepts exactly our built index.html, ignoring hash and query', () => {
    const isApp = createAppUrlPolicy({ kind: 'file', indexPath });
    expect(isApp(fileUrl)).toBe(true);
    expect(isApp(`${fileUrl}#ws=1&secret=x`)).toBe(true);
    expect(isApp(`${fileUrl}?a=1`)).toBe(true);
  });

  it.each([
    ['file:///opt/LAN%20Party/resources/dist/renderer/other.html'],
    ['file:///etc/passwd'],
    ['file://evil-host/opt/LAN%20Party/resources/dist/renderer/index.html'],
    ['https://evil.example/index.html'],
    ['not a url'],
    [''],
  ])('rejects %j for the file location', (url) => {
    expect(createAppUrlPolicy({ kind: 'file', indexPath })(url)).toBe(false);
  });

  it('accepts the dev server origin only', () => {
    const isApp = createAppUrlPolicy({ kind: 'url', url: 'http://localhost:5173/' });
    expect(isApp('http://localhost:5173/')).toBe(true);
    expect(isApp('http://localhost:5173/src/x#h')).toBe(true);
    expect(isApp('http://localhost:5174/')).toBe(false);
    expect(isApp('http://localhost.evil.example:5173/')).toBe(false);
    expect(isApp('file:///index.html')).toBe(false);
  });

  it('prefers the dev server URL when one is given in a dev run', () => {
    expect(resolveAppLocation('http://localhost:5173/', indexPath, false)).toEqual({
      kind: 'url',
      url: 'http://localhost:5173/',
    });
    expect(resolveAppLocation(undefined, indexPath, false)).toEqual({ kind: 'file', indexPath });
    expect(resolveAppLocation('', indexPath, false)).toEqual({ kind: 'file', indexPath });
  });

  it('ignores any dev server URL in the packaged app', () => {
    expect(resolveAppLocation('http://attacker.example:8080/', indexPath, true)).toEqual({ kind: 'file', indexPath });
  });
});
