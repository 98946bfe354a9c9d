import type { FunctionComponent } from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { HudState, ScoreRow } from '../../../../renderer/src/games/tag/hudModel';

// Loaded by a runtime path: the node tsconfig that checks tests has no JSX (the renderer's own config checks it).
const overlayModule = '../../../../renderer/src/games/tag/CountdownOverlay';
const { CountdownOverlay } = (await import(/* @vite-ignore */ overlayModule)) as {
  CountdownOverlay: FunctionComponent<{ hud: HudState }>;
};

const row = (extra: Partial<ScoreRow>): ScoreRow => ({
  id: '0',
  name: 'ada',
  colour: '#5b8cff',
  score: 0,
  it: true,
  self: false,
  ...extra,
});
const hud = (it: ScoreRow, countdown = 3): HudState => ({
  phase: 'playing',
  secondsLeft: 90,
  rows: [it, row({ id: '1', name: 'bob', it: false, self: true })],
  it,
  cooldown: 0,
  countdown,
});
/** The countdown's "who is IT" line as a player reads it. */
const whoLine = (state: HudState) =>
  /data-testid="countdown-who">(.*?)<\/p>/
    .exec(renderToStaticMarkup(createElement(CountdownOverlay, { hud: state })))?.[1]
    ?.replace(/<[^>]+>/g, '')
    .trim();

describe('CountdownOverlay', () => {
  it('names who is IT, or says it is you', () => {
    expect(whoLine(hud(row({})))).toBe('ada is IT');
    expect(whoLine(hud(row({ self: true })))).toBe('You are IT');
  });

  it('never headlines a stand-in name: before the roster names IT it says "Someone is IT"', () => {
    expect(whoLine(hud(row({ name: 'Player 0', unnamed: true })))).toBe('Someone is IT');
    expect(whoLine(hud(row({ name: 'Player 0', unnamed: true, self: true })))).toBe('You are IT');
  });

  it('shows nothing once the countdown is over', () => {
    expect(renderToStaticMarkup(createElement(CountdownOverlay, { hud: hud(row({}), 0) }))).toBe('');
  });
});
