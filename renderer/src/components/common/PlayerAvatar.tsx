import type { CSSProperties } from 'react';
import { initialsOf } from './initials';

/** A round badge with the player's initials in their colour; decorative (the name is shown next to it). */
export function PlayerAvatar({
  name,
  color,
  size = 'small',
}: {
  name: string;
  color: string;
  size?: 'small' | 'large';
}) {
  return (
    <span className={`avatar avatar-${size}`} style={{ '--player': color } as CSSProperties} aria-hidden="true">
      {initialsOf(name)}
    </span>
  );
}
