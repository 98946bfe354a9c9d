import type { BinaryGameWire } from '../../../game/gameTypes';
import { tagInputWire } from './tagInputWire';
import { tagSnapshotWire } from './tagSnapshotWire';

/** Tag's per-tick messages in binary between LAN Party apps (version 1: the layout of the former lobby room codec). */
export const tagWire: BinaryGameWire = { kind: 'binary', version: 1, input: tagInputWire, snapshot: tagSnapshotWire };
