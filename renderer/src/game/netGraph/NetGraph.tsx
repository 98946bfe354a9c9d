import { useEffect, useRef, useState } from 'react';
import { drawNetGraph, NET_GRAPH_COLOURS } from './drawNetGraph';
import type { GameApi } from '../gameApi';
import { conditionerLine, NetGraphModel } from './netGraphModel';

/** Polls per second: often enough to see a spike, rare enough to cost nothing. */
const POLL_MS = 250;

/** Graph size in CSS pixels. */
const WIDTH = 240;
const HEIGHT = 64;

/** Live RTT, jitter and loss of the room connection (from `net.stats`), plus the snapshot rate and conditioner. */
export function NetGraph({ api, snapshotCount }: { api: GameApi; snapshotCount: () => number }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [text, setText] = useState({ summary: 'Measuring…', scope: '', conditioner: null as string | null });

  useEffect(() => {
    const model = new NetGraphModel();
    let last = performance.now();
    let inFlight = false;
    let alive = true;
    const poll = async (): Promise<void> => {
      if (inFlight) return;
      inFlight = true;
      try {
        const stats = await api['net.stats']();
        if (!alive) return;
        const now = performance.now();
        model.add(stats, (snapshotCount() * 1000) / Math.max(1, now - last));
        last = now;
        const canvas = canvasRef.current;
        const ctx = canvas?.getContext('2d');
        if (canvas && ctx) {
          const ratio = window.devicePixelRatio || 1;
          const [w, h] = [Math.round(WIDTH * ratio), Math.round(HEIGHT * ratio)];
          if (canvas.width !== w || canvas.height !== h) [canvas.width, canvas.height] = [w, h];
          drawNetGraph(ctx, model.samples.toArray(), ratio);
        }
        setText({ summary: model.summary(), scope: model.scope(), conditioner: conditionerLine(stats.conditioner) });
      } catch {
        // The next poll tries again; a dropped backend shows in the app's own banner.
      } finally {
        inFlight = false;
      }
    };
    void poll();
    const timer = setInterval(() => void poll(), POLL_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [api, snapshotCount]);

  return (
    <section className="net-graph" aria-label="Network">
      <header className="net-graph-head">
        <h2>Network</h2>
        <span className="net-graph-scope">{text.scope}</span>
      </header>
      <canvas ref={canvasRef} className="net-graph-canvas" width={WIDTH} height={HEIGHT} aria-hidden="true" />
      <ul className="net-graph-legend" aria-hidden="true">
        <li style={{ color: NET_GRAPH_COLOURS.rtt }}>RTT</li>
        <li style={{ color: NET_GRAPH_COLOURS.jitter }}>jitter</li>
        <li style={{ color: NET_GRAPH_COLOURS.loss }}>loss</li>
      </ul>
      <p className="net-graph-summary" data-testid="net-summary">
        {text.summary}
      </p>
      {text.conditioner && <p className="net-graph-conditioner">{text.conditioner}</p>}
    </section>
  );
}
