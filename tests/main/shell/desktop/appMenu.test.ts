import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { appMenuTemplate, type AppMenuOptions } from '../../../../main/shell/desktop/appMenu';

function menu(overrides: Partial<AppMenuOptions> = {}) {
  const actions = { openLogsFolder: vi.fn(), openNetworkCheck: vi.fn(), showAbout: vi.fn() };
  const template = appMenuTemplate({
    appName: 'LAN Party',
    platform: 'linux',
    isPackaged: true,
    actions,
    ...overrides,
  });
  return { template, actions };
}

/** Every role and label in the menu, depth first. */
function entries(items: readonly MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    ...(item.role ? [`role:${item.role}`] : []),
    ...(item.label ? [`label:${item.label}`] : []),
    ...(Array.isArray(item.submenu) ? entries(item.submenu) : []),
  ]);
}

function submenu(template: MenuItemConstructorOptions[], name: string): MenuItemConstructorOptions[] {
  const top = template.find((item) => item.label === name || item.role === name);
  if (!top || !Array.isArray(top.submenu)) throw new Error(`no ${name} menu`);
  return top.submenu;
}

function click(items: MenuItemConstructorOptions[], label: string): void {
  const item = items.find((entry) => entry.label === label);
  if (!item?.click) throw new Error(`no ${label} item`);
  (item.click as () => void)();
}

describe('application menu', () => {
  it('a packaged app has no reload and no developer tools', () => {
    const all = entries(menu({ isPackaged: true }).template);
    for (const role of ['reload', 'forceReload', 'toggleDevTools']) expect(all).not.toContain(`role:${role}`);
    expect(all).toContain('role:togglefullscreen');
  });

  it('a development run keeps reload and developer tools', () => {
    const view = entries(submenu(menu({ isPackaged: false }).template, 'View'));
    expect(view).toEqual(expect.arrayContaining(['role:reload', 'role:forceReload', 'role:toggleDevTools']));
  });

  it('Edit has the text roles, so copy and paste work in inputs', () => {
    expect(entries(submenu(menu().template, 'Edit'))).toEqual(
      expect.arrayContaining(['role:undo', 'role:redo', 'role:cut', 'role:copy', 'role:paste', 'role:selectAll']),
    );
  });

  it('macOS gets the standard app menu first: About, Hide, Quit', () => {
    const { template, actions } = menu({ platform: 'darwin' });
    expect(template[0]!.label).toBe('LAN Party');
    const app = submenu(template, 'LAN Party');
    expect(entries(app)).toEqual(
      expect.arrayContaining(['label:About LAN Party', 'role:hide', 'role:hideOthers', 'role:unhide', 'role:quit']),
    );
    click(app, 'About LAN Party');
    expect(actions.showAbout).toHaveBeenCalledOnce();
    // File closes the window there (Quit lives in the app menu).
    expect(entries(submenu(template, 'File'))).toEqual(['role:close']);
  });

  it('Windows and Linux get no app menu; File quits', () => {
    for (const platform of ['win32', 'linux']) {
      const { template } = menu({ platform });
      expect(template[0]!.label).toBe('File');
      expect(entries(submenu(template, 'File'))).toEqual(['role:quit']);
      expect(entries(template)).not.toContain('role:hide');
    }
  });

  it('Help opens the logs folder, the network check and the About box', () => {
    const { template, actions } = menu();
    const help = submenu(template, 'help');
    expect(help.filter((item) => item.label).map((item) => item.label)).toEqual([
      'Open logs folder',
      'Network check',
      'About LAN Party',
    ]);
    click(help, 'Open logs folder');
    click(help, 'Network check');
    click(help, 'About LAN Party');
    expect(actions.openLogsFolder).toHaveBeenCalledOnce();
    expect(actions.openNetworkCheck).toHaveBeenCalledOnce();
    expect(actions.showAbout).toHaveBeenCalledOnce();
  });
});
