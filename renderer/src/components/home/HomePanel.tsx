import { useEffect, type CSSProperties } from 'react';
import type { LanList } from '../../../../shared/ipc/schemas/lan';
import type { Settings } from '../../../../shared/ipc/schemas/settings';
import { lanHint } from '../../logic/lanHint';
import type { Screen } from '../../state/navigation';
import { BrowseIcon, HostIcon, JoinIcon, PulseIcon } from '../common/Icons';
import { useMountFocus } from '../common/useMountFocus';

/**
 * The launcher's main area: one obvious first step (host), the ways to join beside it (Browse says how many rooms
 * the LAN search already sees), the network check, and for a player who has never been in a room how game night
 * works.
 */
export function HomePanel({
  settings,
  lan,
  newPlayer,
  onWatchLan,
  onNavigate,
}: {
  settings: Settings;
  lan: LanList;
  /** Never hosted or joined a room on this computer: show "How game night works". */
  newPlayer: boolean;
  /** Starts the LAN search; the returned function stops it. */
  onWatchLan: () => () => void;
  onNavigate: (screen: Screen) => void;
}) {
  const heading = useMountFocus<HTMLHeadingElement>();
  useEffect(onWatchLan, [onWatchLan]);
  const joinWays: { screen: Screen; title: string; text: string; icon: typeof JoinIcon }[] = [
    { screen: 'join', title: 'Join with a code', text: 'Type the code a friend read out.', icon: JoinIcon },
    { screen: 'browse', title: 'Browse the LAN', text: lanHint(lan), icon: BrowseIcon },
  ];
  return (
    <section className="home" aria-labelledby="home-title">
      <div className="hero" style={{ '--player': settings.playerColor } as CSSProperties}>
        <p className="eyebrow">Your network · no accounts · no cloud</p>
        <h1 id="home-title" className="hero-title" ref={heading} tabIndex={-1}>
          Ready to play, <span className="hero-name">{settings.playerName}</span>?
        </h1>
        <div className="home-actions">
          <button type="button" className="home-host" onClick={() => onNavigate('host')}>
            <span className="home-host-icon" aria-hidden="true">
              <HostIcon />
            </span>
            <span className="home-host-text">
              <span className="home-host-title">Host a room</span>
              <span className="home-host-sub">Open a lobby on this computer and share its short code.</span>
            </span>
            <span className="home-host-arrow" aria-hidden="true">
              →
            </span>
          </button>
          <ul className="home-join" aria-label="Join a friend’s room">
            {joinWays.map(({ screen, title, text, icon: Icon }) => (
              <li key={screen}>
                <button type="button" className="home-join-button" onClick={() => onNavigate(screen)}>
                  <span className="home-join-icon" aria-hidden="true">
                    <Icon />
                  </span>
                  <span className="home-join-text">
                    <span className="home-join-title">{title}</span>
                    <span className="home-join-sub" data-testid={`home-${screen}-hint`}>
                      {text}
                    </span>
                  </span>
                  <span className="home-join-arrow" aria-hidden="true">
                    →
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      </div>
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
      {newPlayer && (
        <>
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
        </>
      )}
    </section>
  );
}
