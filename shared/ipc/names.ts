// Kept free of imports so the sandboxed preload bundle stays tiny: it needs the names, never the schemas.

/** Every request the renderer may make; contract.ts must give each one input and output schemas. */
export const requestNames = [
  'app.reportError',
  'netcheck.exportReport',
  'app.getInfo',
  'settings.get',
  'settings.update',
  'lobby.get',
  'lobby.host',
  'lobby.joinByCode',
  'lobby.addresses',
  'lobby.joinByAddress',
  'lobby.leave',
  'lobby.setReady',
  'lobby.chat',
  'lobby.kick',
  'lobby.start',
  'lobby.endRound',
  'lan.start',
  'lan.stop',
  'lan.refresh',
  'lan.addServer',
  'lan.removeServer',
  'netcheck.run',
  'game.get',
  'game.input',
  'net.stats',
  'dev.getConditioner',
  'dev.setConditioner',
  // The desktop shell (main/shell): links and notices kept for the page, updates.
  'app.pending',
  'app.updateStatus',
  'app.installUpdate',
] as const;

/** Every event main may push to the renderer; contract.ts must give each one a payload schema. */
export const eventNames = [
  'settings.changed',
  'lobby.changed',
  'lan.servers',
  'game.roster',
  'game.snapshot',
  'game.results',
  'game.ended',
  // The desktop shell (main/shell): a room link, a recovery notice, update progress, a menu command.
  'app.deepLink',
  'app.notice',
  'app.update',
  'app.openScreen',
] as const;

/** One of {@link requestNames}. */
export type RequestName = (typeof requestNames)[number];

/** One of {@link eventNames}. */
export type EventName = (typeof eventNames)[number];
