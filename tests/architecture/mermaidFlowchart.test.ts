import { describe, expect, it } from 'vitest';
import { mermaidFlowchart } from '../../scripts/architecture/mermaidFlowchart';

describe('mermaidFlowchart', () => {
  it('frames main, main/net and shared, dots type-only arrows, reddens rule breaks, ends arrows into shared at its frame', () => {
    const text = mermaidFlowchart({
      parts: ['main/index.ts', 'main/lobby', 'main/net', 'main/net/v1', 'renderer', 'shared/ipc', 'shared/lobby'],
      edges: [
        { from: 'main/index.ts', to: 'main/lobby', typeOnly: false, breaksRule: false },
        { from: 'main/lobby', to: 'main/net', typeOnly: true, breaksRule: false },
        { from: 'main/lobby', to: 'shared/ipc', typeOnly: true, breaksRule: false },
        { from: 'main/lobby', to: 'shared/lobby', typeOnly: false, breaksRule: false },
        { from: 'main/net/v1', to: 'main/lobby', typeOnly: false, breaksRule: true },
        { from: 'renderer', to: 'shared/ipc', typeOnly: true, breaksRule: false },
        { from: 'shared/ipc', to: 'shared/lobby', typeOnly: false, breaksRule: false },
      ],
    });
    expect(text).toBe(
      [
        'flowchart LR',
        '  p_renderer["renderer"]',
        '  subgraph frame_main["main (Electron main process, Node)"]',
        '    p_main_index_ts["index.ts"]',
        '    p_main_lobby["lobby"]',
        '    subgraph frame_net["main/net (transport library)"]',
        '      p_main_net["top-level files"]',
        '      p_main_net_v1["v1"]',
        '    end',
        '  end',
        '  subgraph frame_shared["shared (pure TS, both processes)"]',
        '    p_shared_ipc["ipc"]',
        '    p_shared_lobby["lobby"]',
        '  end',
        '  p_main_index_ts --> p_main_lobby',
        '  p_main_lobby -.-> p_main_net',
        // One runtime import into shared/ makes the merged arrow solid.
        '  p_main_lobby --> frame_shared',
        '  p_main_net_v1 --> p_main_lobby',
        '  p_renderer -.-> frame_shared',
        '  p_shared_ipc --> p_shared_lobby',
        '  linkStyle 3 stroke:#d62728,stroke-width:2px',
        '',
      ].join('\n'),
    );
  });

  it('leaves out empty frames and the style line when no arrow breaks a rule', () => {
    expect(
      mermaidFlowchart({
        parts: ['preload', 'renderer'],
        edges: [{ from: 'preload', to: 'renderer', typeOnly: false, breaksRule: false }],
      }),
    ).toBe('flowchart LR\n  p_preload["preload"]\n  p_renderer["renderer"]\n  p_preload --> p_renderer\n');
  });
});
