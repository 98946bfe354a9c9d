import type { HostAddress } from '../../../../shared/ipc/schemas/lobby';
import { shortCodeMissingText } from '../../logic/shortCodeNote';

/** One address as the picker lists it: interface name, address, and "VPN" when the name says so. */
export function addressLabel(entry: HostAddress): string {
  return `${entry.interfaceName} · ${entry.address}${entry.vpn ? ' · VPN' : ''}`;
}

/**
 * Which of this machine's addresses the room code carries, listed by interface (VPN overlays such as
 * Tailscale or ZeroTier included), with what the choice means for the short code.
 */
export function AddressPicker({
  addresses,
  value,
  onChange,
}: {
  addresses: readonly HostAddress[];
  value: string;
  onChange: (entry: HostAddress) => void;
}) {
  const chosen = addresses.find((entry) => entry.address === value);
  const note = chosen?.shortCodeMissing
    ? shortCodeMissingText(chosen.shortCodeMissing)
    : 'Friends on this network type a short code; the full code works too.';
  return (
    <div className="field">
      <label className="field-label" htmlFor="room-address">
        Address in the code
      </label>
      <select
        id="room-address"
        className="input select"
        value={value}
        aria-describedby="room-address-hint"
        onChange={(event) => {
          const entry = addresses.find((candidate) => candidate.address === event.target.value);
          if (entry) onChange(entry);
        }}
      >
        {addresses.map((entry) => (
          <option key={`${entry.interfaceName}/${entry.address}`} value={entry.address}>
            {addressLabel(entry)}
          </option>
        ))}
      </select>
      <p id="room-address-hint" className="field-hint">
        {note}
      </p>
    </div>
  );
}
