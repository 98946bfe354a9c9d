// Kept free of imports so the sandboxed preload bundle stays tiny: it needs the names, never the schemas.

/** Every request the renderer may make; contract.ts must give each one input and output schemas. */
export const requestNames = ['app.getInfo', 'settings.get', 'settings.update'] as const;

/** Every event main may push to the renderer; contract.ts must give each one a payload schema. */
export const eventNames = ['settings.changed'] as const;

/** One of {@link requestNames}. */
export type RequestName = (typeof requestNames)[number];

/** One of {@link eventNames}. */
export type EventName = (typeof eventNames)[number];
