import { internetSettingsSchema } from '../../shared/ipc/schemas/internetSettings';
import { hostInterfaceSchema, playerColorSchema, themeSchema, type Settings } from '../../shared/ipc/schemas/settings';
import { LOBBY_NAME_UNITS } from '../../shared/lobby/lobbyLimits';
import { playerNameSchema } from '../../shared/lobby/lobbyMessages';
import { clipToUnits } from '../../shared/text/normalizeText';
import { LAN_ADDED_SERVERS_MAX, lanAddServerInputSchema } from '../../shared/ipc/schemas/lan';

/** The settings file inside the user-data folder. */
export const SETTINGS_FILE_NAME = 'settings.json';

/** Format version written into the file so a later release can migrate it. */
export const SETTINGS_FILE_VERSION = 1;

/** A server the player added to the LAN list by address: the host as typed and its discovery port. */
export interface SavedLanServer {
  readonly host: string;
  readonly port: number;
}

/** Settings read from disk plus what had to be replaced with defaults. */
export interface ParsedSettingsFile {
  readonly settings: Settings;
  /** The LAN list's servers added by address (main-only: the renderer gets them through the list). */
  readonly lanServers: readonly SavedLanServer[];
  readonly warnings: readonly string[];
  /** True when nothing in the file was usable (unparsable, wrong shape or version). */
  readonly unreadable: boolean;
}

/** Parses the file's text (a UTF-8 BOM, as Notepad writes, is fine); invalid fields fall back one by one, with a warning. */
export function parseSettingsFile(text: string, defaults: Settings): ParsedSettingsFile {
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return {
      settings: defaults,
      lanServers: [],
      warnings: ['settings file is not valid JSON; using defaults'],
      unreadable: true,
    };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return {
      settings: defaults,
      lanServers: [],
      warnings: ['settings file is not a JSON object; using defaults'],
      unreadable: true,
    };
  }
  const record = json as Record<string, unknown>;
  if (record.version !== SETTINGS_FILE_VERSION) {
    const warning = `settings file has unsupported version ${JSON.stringify(record.version)}; using defaults`;
    return { settings: defaults, lanServers: [], warnings: [warning], unreadable: true };
  }
  const warnings: string[] = [];
  // Names were once counted in code points: a longer one (emoji) is kept cut where every room already cut it.
  const rawName = record.playerName;
  const name = playerNameSchema.safeParse(
    typeof rawName === 'string' ? clipToUnits(rawName.trim(), LOBBY_NAME_UNITS) : rawName,
  );
  if (!name.success) warnings.push('settings file has an invalid playerName; using the default');
  const color = playerColorSchema.safeParse(record.playerColor);
  if (!color.success) warnings.push('settings file has an invalid playerColor; using the default');
  // Files from before the first-run step have no flag; they exist only once a profile was saved, so that
  // player has been through setup already.
  let onboarded = true;
  if (typeof record.onboarded === 'boolean') onboarded = record.onboarded;
  else if (record.onboarded !== undefined) warnings.push('settings file has an invalid onboarded flag; using true');
  // Files from before the setting have none: they keep the default.
  let notifications = defaults.notifications;
  if (typeof record.notifications === 'boolean') notifications = record.notifications;
  else if (record.notifications !== undefined) {
    warnings.push('settings file has an invalid notifications flag; using the default');
  }
  // Files from before the theme choice have none: they follow the OS, as before.
  const theme = themeSchema.safeParse(record.theme);
  if (!theme.success && record.theme !== undefined)
    warnings.push('settings file has an invalid theme; using the default');
  // Files from before internet rooms have none (off); a damaged block falls back to off alone.
  const internet = internetSettingsSchema.safeParse(record.internet);
  if (!internet.success && record.internet !== undefined) {
    warnings.push('settings file has invalid internet room settings; internet rooms are off until set again');
  }
  // Files from before the address choice have none: the room picks the best LAN address, as before.
  const hostInterface = hostInterfaceSchema.safeParse(record.hostInterface ?? null);
  if (!hostInterface.success) warnings.push('settings file has an invalid hostInterface; using the default');
  return {
    settings: {
      playerName: name.success ? name.data : defaults.playerName,
      playerColor: color.success ? color.data : defaults.playerColor,
      onboarded,
      notifications,
      theme: theme.success ? theme.data : defaults.theme,
      ...(internet.success ? { internet: internet.data } : {}),
      ...(hostInterface.success && hostInterface.data !== null ? { hostInterface: hostInterface.data } : {}),
    },
    lanServers: parseLanServers(record.lanServers, warnings),
    warnings,
    unreadable: false,
  };
}

/** The saved LAN servers; a damaged entry is dropped with a warning and the rest are kept. */
function parseLanServers(value: unknown, warnings: string[]): SavedLanServer[] {
  // Files from before the LAN list's "Add server by address" have none.
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    warnings.push('settings file has an invalid lanServers list; starting with none');
    return [];
  }
  const servers: SavedLanServer[] = [];
  value.forEach((entry: unknown, index) => {
    const parsed = lanAddServerInputSchema.safeParse(entry);
    if (!parsed.success) warnings.push(`settings file has an invalid lanServers entry #${index + 1}; dropped it`);
    else if (servers.length >= LAN_ADDED_SERVERS_MAX)
      warnings.push(`settings file lists too many lanServers; dropped #${index + 1}`);
    else servers.push(parsed.data);
  });
  return servers;
}

/** The file's text for some settings and the saved LAN servers (left out while there are none). */
export function serializeSettingsFile(settings: Settings, lanServers: readonly SavedLanServer[] = []): string {
  const file = { version: SETTINGS_FILE_VERSION, ...settings, ...(lanServers.length > 0 ? { lanServers } : {}) };
  return `${JSON.stringify(file, null, 2)}\n`;
}
