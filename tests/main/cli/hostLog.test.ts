import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHostLog } from '../../../main/cli/hostLog';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lan-party-host-log-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const at = () => new Date(2026, 0, 2, 21, 5, 9);

describe('openHostLog', () => {
  it('without a file: timestamped lines and the plain banner on stdout only', () => {
    let out = '';
    const log = openHostLog(undefined, (text) => (out += text), at);
    log.banner(['Room code: ABCDE-FGHIJ', 'Press Ctrl-C to close the room.']);
    log.line('Gus joined as player 1 (1/4 players)');
    log.failure('not on stdout');
    expect(log.filePath).toBeUndefined();
    expect(out).toBe(
      'Room code: ABCDE-FGHIJ\nPress Ctrl-C to close the room.\n[21:05:09] Gus joined as player 1 (1/4 players)\n',
    );
  });

  it('with a file: the same lines in it, with the date, creating its folder', async () => {
    let out = '';
    const log = openHostLog(join(dir, 'sub', 'host.log'), (text) => (out += text), at);
    log.banner(['Room code: ABCDE-FGHIJ']);
    log.line('Room closed');
    log.failure('could not open the room: port busy.');
    expect(log.filePath).toBe(join(dir, 'sub', 'host.log'));
    expect(out).toBe('Room code: ABCDE-FGHIJ\n[21:05:09] Room closed\n');
    const lines = (await readFile(join(dir, 'sub', 'host.log'), 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\[\d{4}-\d\d-\d\d [\d:.]+[+-]\d\d:\d\d\] \[info\] {2}\(host\) Room code: ABCDE-FGHIJ$/);
    expect(lines[1]).toMatch(/\[info\] {2}\(host\) Room closed$/);
    expect(lines[2]).toMatch(/\[error\] \(host\) could not open the room: port busy\.$/);
  });

  // The file holds the room's NET- code: owner-only (POSIX modes; Windows keeps it by the folder's rights).
  it.runIf(process.platform !== 'win32')('creates the file readable by its owner only, before any line', async () => {
    const path = join(dir, 'host.log');
    const log = openHostLog(path, () => undefined, at);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    log.line('Internet code: NET-ABCD');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('refuses a file it cannot write, naming it, before anything is logged', async () => {
    const blocker = join(dir, 'a-file');
    await writeFile(blocker, '');
    let out = '';
    expect(() => openHostLog(join(blocker, 'host.log'), (text) => (out += text), at)).toThrow(
      `--log-file: cannot write to ${join(blocker, 'host.log')}: a file is in the way of its folder`,
    );
    expect(() => openHostLog(dir, (text) => (out += text), at)).toThrow(`cannot write to ${dir}: that is a folder`);
    expect(out).toBe('');
  });
});
