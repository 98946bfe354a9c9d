/**
 * Packages the main and host-CLI bundles leave to Node's require (vite.config.ts, main/cli/hostCli.vite.config.ts):
 * sodium-native and udx-native load `.node` prebuilds found next to their own files, which a bundle would lose;
 * hyperdht, their user, stays whole in node_modules (electron-builder.yml ships it, the addons unpacked).
 */
export const BUNDLE_EXTERNALS: readonly string[] = ['hyperdht', 'sodium-native', 'udx-native'];

/** Whether an import specifier names one of BUNDLE_EXTERNALS or a file inside it (`hyperdht/lib/errors`). */
export function isBundleExternal(specifier: string): boolean {
  return BUNDLE_EXTERNALS.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}
