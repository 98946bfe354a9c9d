import type { ChatLine } from '../../shared/lobby/lobbyState';

/** Lines kept at most: a guest does not type more than this into one gap (the host's chat limit is far lower). */
const MAX_PENDING = 32;

/**
 * A guest's own chat lines that the room has not shown yet. A line the old connection took but never delivered
 * (the path died, the session was given up) would be lost with it; after coming back to the seat the guest sends
 * these again. The host handles a guest's lines in order, so the room showing line T means every earlier pending
 * line was handled too (shown, or dropped by the host's rate limit): only the lines after the last one shown are
 * sent again, and a line the welcome's history already holds is not, so none is shown twice.
 */
export class PendingChat {
  private lines: string[] = [];
  private newestSeen = -1;

  /** A line we sent (already normalised as the host will show it). */
  sent(text: string): void {
    this.lines.push(text);
    if (this.lines.length > MAX_PENDING) this.lines.shift();
  }

  /** A line the room showed (a chat event, or the welcome's history): ours settles it and everything before it. */
  shown(line: ChatLine, you: number): void {
    if (line.from !== you || line.id <= this.newestSeen) return;
    this.newestSeen = line.id;
    const at = this.lines.indexOf(line.text);
    if (at >= 0) this.lines.splice(0, at + 1);
  }

  /** Back in the seat with the room's history: settles what it shows and returns the lines to send again. */
  afterReturn(history: readonly ChatLine[], you: number): readonly string[] {
    for (const line of history) this.shown(line, you);
    return [...this.lines];
  }
}
