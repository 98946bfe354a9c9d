import {
  DEFAULT_INTERNET_SETTINGS,
  internetSettingsSchema,
  type InternetSettings,
} from '../../../../shared/ipc/schemas/internetSettings';

/** The Internet rooms form as typed: every field a string, whatever the TURN mode. */
export interface InternetRoomsDraft {
  rendezvousUrl: string;
  turnMode: InternetSettings['turn']['mode'];
  turnServer: string;
  turnUsername: string;
  turnPassword: string;
  /** The DHT's bootstrap nodes as typed, host:port separated by commas or spaces; empty: the public ones. */
  dhtBootstrap: string;
}

/** The form's fields for stored settings (absent: internet rooms off). */
export function draftOf(settings: InternetSettings | undefined): InternetRoomsDraft {
  const s = settings ?? DEFAULT_INTERNET_SETTINGS;
  const turn = s.turn;
  return {
    rendezvousUrl: s.rendezvousUrl ?? '',
    turnMode: turn.mode,
    turnServer: turn.mode === 'static' ? turn.server : '',
    turnUsername: turn.mode === 'static' ? turn.username : '',
    turnPassword: turn.mode === 'static' ? turn.password : '',
    dhtBootstrap: (s.dhtBootstrap ?? []).join(', '),
  };
}

/** The settings block for a draft, or the first problem in words (checked with the contract's own schema). */
export function settingsOf(
  draft: InternetRoomsDraft,
): { ok: true; value: InternetSettings } | { ok: false; error: string } {
  const url = draft.rendezvousUrl.trim();
  const turn =
    draft.turnMode === 'static'
      ? { mode: 'static', server: draft.turnServer, username: draft.turnUsername, password: draft.turnPassword }
      : { mode: draft.turnMode };
  const nodes = draft.dhtBootstrap.split(/[\s,]+/).filter((node) => node !== '');
  const parsed = internetSettingsSchema.safeParse({
    rendezvousUrl: url === '' ? null : url,
    turn,
    ...(nodes.length > 0 ? { dhtBootstrap: nodes } : {}),
  });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: parsed.error.issues[0]?.message ?? 'Check the fields' };
}
