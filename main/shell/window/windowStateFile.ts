import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../../base/logger';
import { atomicWriteFile } from '../../base/atomicWriteFile';

/** The file in the user-data folder. */
export const WINDOW_STATE_FILE_NAME = 'window-state.json';

const coordinate = z.number().int().min(-100_000).max(100_000);
const length = z.number().int().min(1).max(100_000);

/** What is kept between launches: the window's normal (not maximised) bounds and whether it was maximised. */
export const windowStateSchema = z.object({
  version: z.literal(1),
  x: coordinate,
  y: coordinate,
  width: length,
  height: length,
  maximized: z.boolean(),
});

/** The saved window state. */
export type WindowState = Omit<z.output<typeof windowStateSchema>, 'version'>;

/** Parses the file's text; null (with the reason) for anything damaged, so the window falls back to defaults. */
export function parseWindowState(text: string): { state: WindowState | null; problem: string | null } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { state: null, problem: 'not valid JSON' };
  }
  const parsed = windowStateSchema.safeParse(json);
  if (!parsed.success) return { state: null, problem: 'not a window state of this version' };
  const { version: _version, ...state } = parsed.data;
  return { state, problem: null };
}

/** Reads the saved state; a missing file is normal, a damaged or unreadable one is logged; both give null. */
export async function loadWindowState(dir: string, logger: Logger): Promise<WindowState | null> {
  const path = join(dir, WINDOW_STATE_FILE_NAME);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') logger.warn(`cannot read ${path}`, error);
    return null;
  }
  const { state, problem } = parseWindowState(text);
  if (problem) logger.warn(`${path} is ${problem}; opening the window at the default size`);
  return state;
}

/** Writes the state atomically (a crash mid-write leaves the old file, never half a file). */
export async function saveWindowState(dir: string, state: WindowState): Promise<void> {
  await mkdir(dir, { recursive: true });
  await atomicWriteFile(join(dir, WINDOW_STATE_FILE_NAME), `${JSON.stringify({ version: 1, ...state }, null, 2)}\n`);
}
