/**
 * Texts a code-holder could seal as its ICE parameters (it holds the agreed keys, so each opens): JSON and not,
 * near-valid parameters with one field broken, hostile candidate lines, deep nesting. Drawn from `draw` (a
 * seeded PRNG), so a failing case is reproduced by its seed and index. None is a valid set of parameters naming
 * an address off loopback (tests only send to loopback), and most are not valid at all.
 */

const UFRAG = 'AbC1';
const PWD = 'abcdefghijklmnopqrstuv';
const LINE = '3671762214 1 udp 2130706431 127.0.0.1 40000 typ host generation 0 ufrag AbC1';

const pick = <T>(draw: () => number, items: readonly T[]): T => items[Math.floor(draw() * items.length)]!;
const int = (draw: () => number, max: number): number => Math.floor(draw() * max);

/** A random string of `length` code points, any of them (lone surrogates, NUL, quotes, backslashes). */
function noise(draw: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) {
    const kind = draw();
    text += kind < 0.6 ? String.fromCharCode(32 + int(draw, 95)) : String.fromCharCode(int(draw, 0x10000));
  }
  return text;
}

/** A value of any JSON type, nested at most `depth`. */
function anyValue(draw: () => number, depth: number): unknown {
  const kind = int(draw, depth > 0 ? 9 : 6);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return draw() < 0.5;
    case 2:
      return pick(draw, [0, -1, 1e308, -0, 4.5, 2 ** 53, 65_536, 40000]);
    case 3:
      return noise(draw, int(draw, 40));
    case 4:
      return pick(draw, [UFRAG, PWD, LINE, 'candidate:' + LINE, '', ' ', 'typ']);
    case 5:
      return 'x'.repeat(pick(draw, [3, 4, 21, 22, 256, 257, 512, 513]));
    case 6:
    case 7:
      return Array.from({ length: int(draw, 6) }, () => anyValue(draw, depth - 1));
    default:
      return Object.fromEntries(
        Array.from({ length: int(draw, 5) }, () => [
          pick(draw, ['usernameFragment', 'password', 'candidates', '__proto__', 'constructor', noise(draw, 5)]),
          anyValue(draw, depth - 1),
        ]),
      );
  }
}

/** A candidate line with one field broken or hostile. */
function candidateLine(draw: () => number): unknown {
  const fields = LINE.split(' ');
  switch (int(draw, 8)) {
    case 0:
      fields[int(draw, fields.length)] = noise(draw, int(draw, 12));
      break;
    case 1:
      fields[5] = pick(draw, ['0', '-1', '65536', '99999999999', 'NaN', '1e3', '0x10', '']);
      break;
    case 2:
      fields[4] = pick(draw, ['::1', 'fe80::1', 'host.local', '999.1.1.1', '127.0.0.1.', '', '127.000.0.1']);
      break;
    case 3:
      fields[2] = pick(draw, ['tcp', 'UDP', 'sctp', '']);
      break;
    case 4:
      fields[7] = pick(draw, ['prflx', 'HOST', 'relay', 'srflx', '']);
      break;
    case 5:
      fields.length = int(draw, fields.length);
      break;
    case 6:
      return anyValue(draw, 1);
    default:
      return ' '.repeat(int(draw, 4)) + fields.join(pick(draw, [' ', '\t', '  ', '\n'])) + noise(draw, int(draw, 4));
  }
  return fields.join(' ');
}

/** Parameters with each field valid or broken; too many, empty or hostile candidates. */
function nearValid(draw: () => number): Record<string, unknown> {
  const params: Record<string, unknown> = {
    usernameFragment: draw() < 0.7 ? UFRAG : anyValue(draw, 1),
    password: draw() < 0.7 ? PWD : anyValue(draw, 1),
    candidates: Array.from({ length: pick(draw, [0, 1, 2, 5, 32, 33]) }, () =>
      draw() < 0.3 ? LINE : candidateLine(draw),
    ),
  };
  if (draw() < 0.1) delete params[pick(draw, ['usernameFragment', 'password', 'candidates'])];
  if (draw() < 0.1) params.extra = anyValue(draw, 2);
  return params;
}

/** One text a code-holder seals as its ICE parameters. */
export function sealedGarbageText(draw: () => number): string {
  switch (int(draw, 6)) {
    case 0:
      return noise(draw, int(draw, 200));
    case 1:
      return JSON.stringify(anyValue(draw, 4)) ?? 'undefined';
    case 2: {
      // A valid text cut short, or with one character changed.
      const text = JSON.stringify(nearValid(draw));
      const at = int(draw, text.length);
      return draw() < 0.5 ? text.slice(0, at) : text.slice(0, at) + noise(draw, 1) + text.slice(at + 1);
    }
    case 3: {
      const depth = pick(draw, [50, 1_000, 3_000]);
      return '['.repeat(depth) + ']'.repeat(draw() < 0.5 ? depth : 0);
    }
    default:
      return JSON.stringify(nearValid(draw));
  }
}
