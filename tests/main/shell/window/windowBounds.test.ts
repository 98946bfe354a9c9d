import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_SIZE, fitWindowBounds, MIN_WINDOW_SIZE } from '../../../../main/shell/window/windowBounds';

// A 1920×1080 laptop panel (taskbar at the bottom) and a 2560×1440 monitor to its right.
const laptop = { x: 0, y: 0, width: 1920, height: 1040 };
const monitor = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('fitWindowBounds', () => {
  it('first launch: the default size, centred on the primary display', () => {
    expect(fitWindowBounds(null, [laptop, monitor])).toEqual({
      x: (1920 - DEFAULT_WINDOW_SIZE.width) / 2,
      y: (1040 - DEFAULT_WINDOW_SIZE.height) / 2,
      ...DEFAULT_WINDOW_SIZE,
    });
  });

  it('restores bounds that are on a display as they were', () => {
    const onMonitor = { x: 2200, y: 100, width: 1400, height: 900 };
    expect(fitWindowBounds(onMonitor, [laptop, monitor])).toEqual(onMonitor);
  });

  it('a window whose monitor is gone comes back centred on the primary display', () => {
    const onMonitor = { x: 2200, y: 100, width: 1400, height: 900 };
    expect(fitWindowBounds(onMonitor, [laptop])).toEqual({ x: 260, y: 70, width: 1400, height: 900 });
  });

  it('a window hanging off a display edge is pulled fully onto it', () => {
    expect(fitWindowBounds({ x: -300, y: 900, width: 1000, height: 700 }, [laptop, monitor])).toEqual({
      x: 0,
      y: 340,
      width: 1000,
      height: 700,
    });
  });

  it('straddling two displays, it goes to the one it covers most', () => {
    const across = { x: 1700, y: 50, width: 1200, height: 800 };
    expect(fitWindowBounds(across, [laptop, monitor])).toEqual({ x: 1920, y: 50, width: 1200, height: 800 });
  });

  it('a window bigger than its display (resolution lowered since) is shrunk to it', () => {
    const small = { x: 0, y: 0, width: 1280, height: 680 };
    expect(fitWindowBounds({ x: 10, y: 10, width: 1900, height: 1000 }, [small])).toEqual(small);
  });

  it('never smaller than the layout’s minimum, unless the display is', () => {
    expect(fitWindowBounds({ x: 100, y: 100, width: 300, height: 200 }, [laptop])).toEqual({
      x: 100,
      y: 100,
      ...MIN_WINDOW_SIZE,
    });
    const tiny = { x: 0, y: 0, width: 800, height: 560 };
    expect(fitWindowBounds({ x: 0, y: 0, width: 300, height: 200 }, [tiny])).toEqual(tiny);
  });

  it('copes with no display information at all', () => {
    expect(fitWindowBounds(null, [])).toEqual({ x: 0, y: 0, ...DEFAULT_WINDOW_SIZE });
  });
});
