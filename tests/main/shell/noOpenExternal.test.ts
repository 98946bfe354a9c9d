import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The app has no "open link" ability: shell.openExternal with page-supplied input is a classic
// Electron escape, so no source file may use it. A feature that needs it must add an allow-list first.
const root = resolve(__dirname, '../../..');

// The allow-list: Help → Open logs folder opens the app's own logs folder (a fixed path, no input).
const LOGS_FOLDER = join(root, 'main', 'shell', 'desktop', 'openLogsFolder.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts|js)$/.test(entry.name) ? [path] : [];
  });
}

function usesShellOpen(text: string): boolean {
  const calls = /\b(openExternal|openPath)\s*\(|\bshell\s*\.\s*open/.test(text);
  const imports = /\{[^}]*\bshell\b[^}]*\}\s*(from\s*['"]electron['"]|=\s*require\(\s*['"]electron['"])/.test(text);
  return calls || imports;
}

describe('no shell.openExternal', () => {
  const files = ['main', 'preload', 'renderer', 'shared'].flatMap((dir) => sourceFiles(join(root, dir)));

  it('the check catches the usual spellings and ignores prose', () => {
    expect(usesShellOpen("import { app, shell } from 'electron';")).toBe(true);
    expect(usesShellOpen("const { shell } = require('electron');")).toBe(true);
    expect(usesShellOpen('void electron.shell.openExternal(url);')).toBe(true);
    expect(usesShellOpen('await openExternal(url)')).toBe(true);
    expect(usesShellOpen('// denies openExternal permission requests')).toBe(false);
  });

  it('no app source uses it, except the allow-listed logs-folder opener', () => {
    expect(files.some((f) => f.endsWith(join('main', 'index.ts')))).toBe(true);
    expect(files).toContain(LOGS_FOLDER);
    expect(files.filter((file) => file !== LOGS_FOLDER && usesShellOpen(readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('the logs-folder opener opens only app.getPath("logs"), once, and never openExternal', () => {
    const text = readFileSync(LOGS_FOLDER, 'utf8');
    expect(text).not.toMatch(/openExternal\s*\(/);
    expect(text.match(/openPath\s*\(/g)).toEqual(['openPath(']);
    expect(text).toMatch(/const dir = app\.getPath\('logs'\);/);
    expect(text).toMatch(/shell\.openPath\(dir\)/);
    // It takes no path from its caller: the only parameter is the logger.
    expect(text).toMatch(/export async function openLogsFolder\(logger: Logger\)/);
  });
});
