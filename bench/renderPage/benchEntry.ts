// Entry of the render benchmark bundle (bench/renderFrame.ts builds it with the production settings and loads it
// into headless Chromium as the global LanPartyRenderBench).
export { run } from './renderBench';
export type { RenderBenchOptions, RenderBenchResult } from './renderBench';
