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
export * from './wire/snapshot';
export * from './client/clientView';
export * from './client/localPrediction';
export * from './wire/tagInput';
export * from './tagGame';
