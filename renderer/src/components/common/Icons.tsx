// Inline SVG icons: no image requests, nothing for the CSP to allow.

const common = {
  width: 24,
  height: 24,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

/** A server rack: hosting a room. */
export function HostIcon() {
  return (
    <svg {...common}>
      <rect x="3" y="4" width="18" height="6" rx="1.5" />
      <rect x="3" y="14" width="18" height="6" rx="1.5" />
      <path d="M7 7h.01M7 17h.01M11 7h6M11 17h6" />
    </svg>
  );
}

/** A key: joining with a room code. */
export function JoinIcon() {
  return (
    <svg {...common}>
      <circle cx="8" cy="15" r="4" />
      <path d="M11 12l8-8M16 7l2 2M14 9l2 2" />
    </svg>
  );
}

/** A radar sweep: browsing servers on the LAN. */
export function BrowseIcon() {
  return (
    <svg {...common}>
      <circle cx="12" cy="12" r="8" />
      <circle cx="12" cy="12" r="4" />
      <path d="M12 12l5-5" />
    </svg>
  );
}

/** A pencil: edit profile. */
export function EditIcon() {
  return (
    <svg {...common} width={16} height={16}>
      <path d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" />
    </svg>
  );
}

/** A padlock: the room has a password. */
export function LockIcon({ size = 16 }: { size?: number }) {
  return (
    <svg {...common} width={size} height={size}>
      <rect x="5" y="11" width="14" height="9" rx="2" />
      <path d="M8 11V8a4 4 0 0 1 8 0v3" />
    </svg>
  );
}

/** Two sheets: copy. */
export function CopyIcon() {
  return (
    <svg {...common} width={18} height={18}>
      <rect x="9" y="9" width="11" height="11" rx="2" />
      <path d="M5 15V6a2 2 0 0 1 2-2h9" />
    </svg>
  );
}

/** A tick: done, ready. */
export function CheckIcon({ size = 18 }: { size?: number }) {
  return (
    <svg {...common} width={size} height={size}>
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </svg>
  );
}

/** Circular arrows: refresh. */
export function RefreshIcon() {
  return (
    <svg {...common} width={18} height={18}>
      <path d="M20 11a8 8 0 0 0-14.9-3M4 4v4h4M4 13a8 8 0 0 0 14.9 3M20 20v-4h-4" />
    </svg>
  );
}

/** A left arrow: back. */
export function BackIcon() {
  return (
    <svg {...common} width={18} height={18}>
      <path d="M15 5l-7 7 7 7" />
    </svg>
  );
}

/** A crown: the host. */
export function CrownIcon() {
  return (
    <svg {...common} width={14} height={14}>
      <path d="M4 18h16M5 15L3.5 7l5 4L12 5l3.5 6 5-4L19 15z" />
    </svg>
  );
}

/** A paper plane: send. */
export function SendIcon() {
  return (
    <svg {...common} width={18} height={18}>
      <path d="M21 3L10 14M21 3l-7 18-4-7-7-4z" />
    </svg>
  );
}

/** A cross: remove, close. */
export function CloseIcon({ size = 16 }: { size?: number }) {
  return (
    <svg {...common} width={size} height={size}>
      <path d="M6 6l12 12M18 6L6 18" />
    </svg>
  );
}

/** A pulse line: the network check. */
export function PulseIcon() {
  return (
    <svg {...common}>
      <path d="M3 12h4l2-6 4 12 2-6h6" />
    </svg>
  );
}

/** A warning triangle. */
export function WarningIcon({ size = 18 }: { size?: number }) {
  return (
    <svg {...common} width={size} height={size}>
      <path d="M12 4l9 16H3z" />
      <path d="M12 10v4M12 17h.01" />
    </svg>
  );
}

/** An "i" in a circle: a tip. */
export function InfoIcon({ size = 18 }: { size?: number }) {
  return (
    <svg {...common} width={size} height={size}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5M12 8h.01" />
    </svg>
  );
}

/** A game controller: the round. */
export function GamepadIcon({ size = 24 }: { size?: number }) {
  return (
    <svg {...common} width={size} height={size}>
      <path d="M7 8h10a5 5 0 0 1 4.6 7l-.6 1.4a2.5 2.5 0 0 1-4 .8L15 15H9l-2 2.2a2.5 2.5 0 0 1-4-.8L2.4 15A5 5 0 0 1 7 8z" />
      <path d="M7 11v3M5.5 12.5h3M15.5 12h.01M17.5 13.5h.01" />
    </svg>
  );
}
