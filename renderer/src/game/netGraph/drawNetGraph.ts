import { NET_GRAPH_SAMPLES, plotPoints, rttScale, type NetSample } from './netGraphModel';

/** Loss at which the loss bars reach the top of the graph. */
export const LOSS_SCALE = 0.1;

/** Net graph colours (the legend in the HUD uses the same). */
export const NET_GRAPH_COLOURS = { rtt: '#22d3ee', jitter: '#a78bfa', loss: '#ff6b81' } as const;

function line(
  ctx: CanvasRenderingContext2D,
  points: ({ x: number; y: number } | null)[],
  colour: string,
  width: number,
): void {
  ctx.beginPath();
  let drawing = false;
  for (const p of points) {
    if (p === null) {
      drawing = false;
    } else if (drawing) {
      ctx.lineTo(p.x, p.y);
    } else {
      ctx.moveTo(p.x, p.y);
      drawing = true;
    }
  }
  ctx.lineWidth = width;
  ctx.strokeStyle = colour;
  ctx.stroke();
}

/** Plots RTT (line), jitter (line) and loss (bars from the bottom) of `samples`, oldest first, over the canvas. */
export function drawNetGraph(ctx: CanvasRenderingContext2D, samples: readonly NetSample[], ratio: number): void {
  const { width, height } = ctx.canvas;
  ctx.clearRect(0, 0, width, height);
  const top = rttScale(samples);
  ctx.strokeStyle = 'rgba(255, 255, 255, 0.08)';
  ctx.lineWidth = ratio;
  ctx.beginPath();
  for (const share of [0.25, 0.5, 0.75]) {
    const y = Math.round(height * share) + 0.5;
    ctx.moveTo(0, y);
    ctx.lineTo(width, y);
  }
  ctx.stroke();
  const step = width / (NET_GRAPH_SAMPLES - 1);
  const loss = plotPoints(
    samples.map((s) => Math.min(LOSS_SCALE, s.loss)),
    width,
    height,
    LOSS_SCALE,
    step,
  );
  ctx.fillStyle = NET_GRAPH_COLOURS.loss;
  for (const p of loss)
    if (p !== null && p.y < height) ctx.fillRect(p.x - step / 2, p.y, Math.max(ratio, step), height - p.y);
  line(
    ctx,
    plotPoints(
      samples.map((s) => s.jitterMs),
      width,
      height,
      top,
      step,
    ),
    NET_GRAPH_COLOURS.jitter,
    1.5 * ratio,
  );
  line(
    ctx,
    plotPoints(
      samples.map((s) => s.rttMs),
      width,
      height,
      top,
      step,
    ),
    NET_GRAPH_COLOURS.rtt,
    2 * ratio,
  );
  ctx.fillStyle = 'rgba(238, 240, 255, 0.6)';
  ctx.font = `${Math.round(10 * ratio)}px system-ui, sans-serif`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(`${top} ms`, 3 * ratio, 2 * ratio);
}
