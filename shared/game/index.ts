/** The generic game protocol every game runs on: message envelope, schemas and lag-compensation plumbing. */
export * from './gameProtocol';
export * from './gameSchemas';
export * from './lagLookup';
export * from './gameTypes';
