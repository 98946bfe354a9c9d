/** How long one window of samples lasts, ms. */
const WINDOW_MS = 5000;
/** Arrivals a window needs before its largest gap says anything about the path. */
const MIN_SAMPLES = 3;

/**
 * The largest gap between two datagrams over the last five to ten seconds (two 5 s windows), from which the path
 * keeper reads how long a silence is unusual on this path: a round's 20 snapshots a second make 300 ms strange, a
 * lobby's heartbeats (a ping and a pong a second each way) do not.
 */
export class ArrivalGaps {
  private current = { largest: 0, samples: 0, since: 0 };
  private previous = { largest: 0, samples: 0 };

  constructor(private last: number) {
    this.current.since = last;
  }

  /** A datagram arrived at `at` (the injected clock's ms). */
  heard(at: number): void {
    if (at - this.current.since >= WINDOW_MS) {
      this.previous = { largest: this.current.largest, samples: this.current.samples };
      this.current = { largest: 0, samples: 0, since: at };
    }
    this.current.largest = Math.max(this.current.largest, at - this.last);
    this.current.samples += 1;
    this.last = at;
  }

  /** Forgets every sample (a new path: its gaps are its own), counting from `at`. */
  reset(at: number): void {
    this.current = { largest: 0, samples: 0, since: at };
    this.previous = { largest: 0, samples: 0 };
    this.last = at;
  }

  /** The largest gap of the recent windows, ms; undefined until enough datagrams came to tell. */
  get largest(): number | undefined {
    if (this.current.samples + this.previous.samples < MIN_SAMPLES) return undefined;
    return Math.max(this.current.largest, this.previous.largest);
  }
}
