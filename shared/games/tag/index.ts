/** The arena tag game: pure rules shared by the host (authoritative) and clients (prediction, rendering). */
export * from './types';
export * from './rules';
export * from './input';
export * from './collision';
export * from './movement';
export * from './players';
export * from './round';
export * from './spawns';
export * from './createGame';
export * from './tagging';
export * from './step';
export * from './snapshot';
export * from './clientView';
export * from './localPrediction';
export * from './tagInput';
export * from './tagGame';
