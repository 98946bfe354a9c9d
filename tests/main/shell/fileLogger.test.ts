import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLog, LOG_FILE_NAME, LOG_MAX_BYTES } from '../../../main/shell/fileLogger';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
// File modes are POSIX: Windows keeps a log private by the user's profile folder instead.
const posix = process.platform !== 'win32';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lan-party-log-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Time with the UTC offset (a support log may come from another time zone), level (padded), component, text.
const LINE = /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d\] \[(\w+)\]\s+\((\w+)\) (.*)$/;

describe('createFileLog', () => {
  it('writes each level with time, level and component, creating the folder', async () => {
    const filePath = join(dir, 'nested', 'logs', LOG_FILE_NAME);
    const logger = createFileLog({ filePath }).logger('lobby');
    logger.info('room open', { port: 9000 });
    logger.warn('discovery busy');
    logger.error('bind failed', new Error('EADDRINUSE'));
    const lines = (await readFile(filePath, 'utf8')).trimEnd().split('\n');
    expect(lines[0]).toMatch(LINE);
    expect(lines[0]!.replace(/^\[[^\]]+\] /, '')).toBe('[info]  (lobby) room open { port: 9000 }');
    expect(lines[1]).toMatch(/\[warn\] {2}\(lobby\) discovery busy$/);
    expect(lines[2]).toMatch(/\[error\] \(lobby\) bind failed Error: EADDRINUSE$/);
    // The stack follows the error, so a support log says where it came from.
    expect(lines[3]).toMatch(/^\s+at .*fileLogger\.test\.ts/);
  });

  it('rotates at the size limit, keeping one old file, so the logs stay bounded', async () => {
    const filePath = join(dir, LOG_FILE_NAME);
    const logger = createFileLog({ filePath, maxBytes: 2000 }).logger('net');
    const line = 'x'.repeat(100);
    for (let i = 0; i < 100; i += 1) logger.info(`${i} ${line}`);
    const current = await readFile(filePath, 'utf8');
    const old = await readFile(join(dir, 'main.old.log'), 'utf8');
    // Each line is about 145 bytes: a file is rotated within a line of the limit.
    expect(Buffer.byteLength(current)).toBeLessThanOrEqual(2000 + 150);
    expect(Buffer.byteLength(old)).toBeGreaterThan(2000 - 300);
    expect(Buffer.byteLength(old)).toBeLessThanOrEqual(2000 + 150);
    expect(current).toContain(`99 ${line}`);
    expect(current).not.toContain(`\n0 ${line}`);
    expect(LOG_MAX_BYTES).toBe(2 * 1024 * 1024);
  });

  it('appends to an existing file and counts its size towards the limit', async () => {
    const filePath = join(dir, LOG_FILE_NAME);
    await writeFile(filePath, 'y'.repeat(1500) + '\n');
    const logger = createFileLog({ filePath, maxBytes: 1000 }).logger('main');
    logger.info('after restart');
    expect(await readFile(join(dir, 'main.old.log'), 'utf8')).toMatch(/^y+\n$/);
    expect(await readFile(filePath, 'utf8')).toMatch(/\(main\) after restart\n$/);
  });

  it.runIf(posix)('creates the log readable by its owner only, and so each new file after a rotation', async () => {
    const filePath = join(dir, LOG_FILE_NAME);
    const logger = createFileLog({ filePath, maxBytes: 2000 }).logger('net');
    logger.info('first line');
    expect(await modeOf(filePath)).toBe(0o600);
    for (let i = 0; i < 100 && !existsSync(join(dir, 'main.old.log')); i += 1) logger.info(`${i} ${'x'.repeat(100)}`);
    logger.info('after the rotation');
    expect(await readFile(join(dir, 'main.old.log'), 'utf8')).toContain('first line');
    expect(await readFile(filePath, 'utf8')).toMatch(/after the rotation\n$/);
    expect(await modeOf(filePath)).toBe(0o600);
    expect(await modeOf(join(dir, 'main.old.log'))).toBe(0o600);
  });

  it.runIf(posix)('makes a log and its rotated copy left readable by all owner-only when it opens them', async () => {
    const filePath = join(dir, LOG_FILE_NAME);
    for (const path of [filePath, join(dir, 'main.old.log')]) {
      await writeFile(path, 'from an earlier version\n');
      await chmod(path, 0o644);
    }
    createFileLog({ filePath }).logger('main').info('after the update');
    expect(await modeOf(filePath)).toBe(0o600);
    expect(await modeOf(join(dir, 'main.old.log'))).toBe(0o600);
  });

  it('hands every line to the mirror too (the console in development)', () => {
    const calls: string[] = [];
    const mirror = (component: string) => ({
      info: (message: string) => void calls.push(`info ${component} ${message}`),
      warn: (message: string) => void calls.push(`warn ${component} ${message}`),
      error: (message: string, ...details: unknown[]) =>
        void calls.push(`error ${component} ${message} ${details.length}`),
    });
    const logger = createFileLog({ filePath: join(dir, LOG_FILE_NAME), mirror }).logger('shell');
    logger.info('a');
    logger.warn('b');
    logger.error('c', new Error('d'));
    expect(calls).toEqual(['info shell a', 'warn shell b', 'error shell c 1']);
  });

  it('keeps running without a file when the folder cannot be made', async () => {
    const blocker = join(dir, 'not-a-folder');
    await writeFile(blocker, '');
    // (electron-log says "Can't write to …" on the console it captured at load; nothing to silence here.)
    const mirrored: string[] = [];
    const logger = createFileLog({
      filePath: join(blocker, LOG_FILE_NAME),
      mirror: () => ({ info: (m) => void mirrored.push(m), warn: () => {}, error: () => {} }),
    }).logger('main');
    expect(() => logger.info('still here')).not.toThrow();
    expect(mirrored).toEqual(['still here']);
    expect(existsSync(join(blocker, LOG_FILE_NAME))).toBe(false);
  });
});
