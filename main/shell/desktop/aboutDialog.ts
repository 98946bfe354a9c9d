/** What the About box lists. */
export interface AboutFacts {
  readonly name: string;
  readonly version: string;
  readonly platform: string;
  readonly arch: string;
  readonly versions: { readonly electron?: string; readonly chrome?: string; readonly node?: string };
  /** UDP ports: LAN discovery, the default game port, and the open room's port while hosting (else null). */
  readonly ports: { readonly discovery: number; readonly game: number; readonly room: number | null };
}

/** The About box's title, headline and detail text (what a support request needs, including the firewall ports). */
export function aboutDialogText(facts: AboutFacts): { title: string; message: string; detail: string } {
  const runtime = [
    facts.versions.electron && `Electron ${facts.versions.electron}`,
    facts.versions.chrome && `Chromium ${facts.versions.chrome}`,
    facts.versions.node && `Node ${facts.versions.node}`,
  ].filter(Boolean);
  const lines = [
    `Version ${facts.version}`,
    `Platform ${facts.platform} (${facts.arch})`,
    ...(runtime.length > 0 ? [runtime.join(' · ')] : []),
    '',
    `LAN discovery: UDP ${facts.ports.discovery}`,
    `Game (default): ${facts.ports.game === 0 ? 'any free UDP port' : `UDP ${facts.ports.game}`}`,
    ...(facts.ports.room !== null ? [`Your open room: UDP ${facts.ports.room}`] : []),
  ];
  return { title: `About ${facts.name}`, message: `${facts.name} ${facts.version}`, detail: lines.join('\n') };
}
