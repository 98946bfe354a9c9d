/** Binary schema definitions, pure data: games declare their wire with them, main/net/codec compiles and runs them. */
export * from './fieldTypes';
export * from './wireFormat';
export * from './quantize';
export * from './ownKeyCount';
