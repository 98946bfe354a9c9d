import type { CSSProperties, ReactNode } from 'react';
import type { Settings } from '../../../shared/ipc/schemas/settings';
import type { Screen } from '../state/navigation';
import { BrowseIcon, HostIcon, JoinIcon, PulseIcon } from './Icons';

const tiles: { screen: Screen; title: string; text: string; icon: ReactNode }[] = [
  {
    screen: 'host',
    title: 'Host a room',
    text: 'Start a lobby on this machine and get a short code to share.',
    icon: <HostIcon />,
  },
  {
    screen: 'join',
    title: 'Join with a code',
    text: 'Type the room code a friend read out and hop in.',
    icon: <JoinIcon />,
  },
  {
    screen: 'browse',
    title: 'Browse the LAN',
    text: 'See every open room on this network, LAN Party or gale.net.',
    icon: <BrowseIcon />,
  },
];

/** The launcher's main area: greeting, the play actions and the network check. */
export function HomePanel({ settings, onNavigate }: { settings: Settings; onNavigate: (screen: Screen) => void }) {
  return (
    <section className="home" aria-labelledby="home-title">
      <div className="hero" style={{ '--player': settings.playerColor } as CSSProperties}>
        <p className="eyebrow">Local network · no accounts · no internet</p>
        <h1 id="home-title" className="hero-title">
          Ready to play, <span className="hero-name">{settings.playerName}</span>?
        </h1>
        <p className="hero-text">
          Host a room, share the code, and everyone on this network is in the lobby in seconds.
        </p>
      </div>
      <h2 id="play-title" className="section-title">
        Play
      </h2>
      <ul className="tiles" aria-labelledby="play-title">
        {tiles.map((tile) => (
          <li key={tile.title}>
            <button type="button" className="tile" onClick={() => onNavigate(tile.screen)}>
              <span className="tile-icon">{tile.icon}</span>
              <span className="tile-title">{tile.title}</span>
              <span className="tile-text">{tile.text}</span>
              <span className="tile-arrow" aria-hidden="true">
                →
              </span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="netcheck-strip" onClick={() => onNavigate('netcheck')}>
        <span className="netcheck-strip-icon">
          <PulseIcon />
        </span>
        <span className="netcheck-strip-text">
          <strong>Network check</strong>
          <span>Friends can’t see your room? Check ports, firewall and discovery on this computer.</span>
        </span>
        <span className="tile-arrow" aria-hidden="true">
          →
        </span>
      </button>
      <h2 className="section-title">How game night works</h2>
      <ol className="steps">
        <li className="step">
          <span>
            <strong>Host</strong>One player opens a room; it gets a short code.
          </span>
        </li>
        <li className="step">
          <span>
            <strong>Share the code</strong>Read it out across the room, or let friends find it on the LAN.
          </span>
        </li>
        <li className="step">
          <span>
            <strong>Play</strong>Meet in the lobby, ready up, and the host starts the round.
          </span>
        </li>
      </ol>
    </section>
  );
}
