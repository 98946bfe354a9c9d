import type { BinaryGameWire } from '../../../game/gameTypes';
import { tagInputWire } from './tagInputWire';
import { tagSnapshotWire } from './tagSnapshotWire';

/** Tag's per-tick messages in binary between LAN Party apps (version 2: inputs carried as tuples, the bytes of version 1). */
export const tagWire: BinaryGameWire = { kind: 'binary', version: 2, input: tagInputWire, snapshot: tagSnapshotWire };
