import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { atomicWriteFile } from '../../base/atomicWriteFile';
import type { MappingHandle } from './router/routerProtocol';

/** The record's file name in the data folder. */
export const MAPPING_RECORD_FILE_NAME = 'port-mappings.json';

/** The mapping record of a data folder. */
export function mappingRecordPath(dataDir: string): string {
  return join(dataDir, MAPPING_RECORD_FILE_NAME);
}

/** A live mapping as recorded: what removes it, which process made it, and when the router forgets it anyway. */
export interface RecordedMapping extends MappingHandle {
  readonly pid: number;
  /** Unix ms after which the lease has run out (0: permanent, never runs out). */
  readonly expiresAt: number;
}

const port = z.number().int().min(1).max(65535);
const recordedMappingSchema = z.object({
  protocol: z.enum(['nat-pmp', 'pcp', 'upnp']),
  gateway: z.string().max(64),
  clientAddress: z.string().max(64),
  internalPort: port,
  externalPort: port,
  nonce: z
    .string()
    .regex(/^[0-9a-f]{24}$/)
    .optional(),
  controlUrl: z.string().max(2048).optional(),
  serviceType: z.string().max(256).optional(),
  pid: z.number().int().nonnegative(),
  expiresAt: z.number().nonnegative(),
});
const recordFileSchema = z.object({ version: z.literal(1), mappings: z.array(recordedMappingSchema).max(256) });

/**
 * The small file of live mappings (written atomically, mode 0600), so the next start removes a mapping a crash
 * left. Changes are queued: one read-modify-write at a time within this process.
 */
export interface MappingRecord {
  add(mapping: RecordedMapping): Promise<void>;
  /** Drops the entries naming this gateway, protocol and external port. */
  remove(handle: MappingHandle): Promise<void>;
  /** The recorded mappings; [] for a missing or unreadable file (a damaged record must not stop the app). */
  read(): Promise<RecordedMapping[]>;
}

/** The record kept at `path`. */
export function createMappingRecord(path: string): MappingRecord {
  let queue: Promise<unknown> = Promise.resolve();
  const read = async (): Promise<RecordedMapping[]> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed = recordFileSchema.safeParse(JSON.parse(text));
      return parsed.success ? (parsed.data.mappings as RecordedMapping[]) : [];
    } catch {
      return [];
    }
  };
  const change = (edit: (mappings: RecordedMapping[]) => RecordedMapping[]): Promise<void> => {
    const next = queue.then(async () => {
      const mappings = edit(await read());
      // The headless host's data folder may not exist yet on a fresh machine.
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await atomicWriteFile(path, `${JSON.stringify({ version: 1, mappings }, null, 2)}\n`);
    });
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    add: (mapping) => change((mappings) => [...mappings.filter((m) => !sameMapping(m, mapping)), mapping].slice(-256)),
    remove: (handle) => change((mappings) => mappings.filter((m) => !sameMapping(m, handle))),
    read: () => queue.then(read),
  };
}

function sameMapping(a: MappingHandle, b: MappingHandle): boolean {
  return a.gateway === b.gateway && a.protocol === b.protocol && a.externalPort === b.externalPort;
}
