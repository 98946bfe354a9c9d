// Draws the app icon from scripts/icon/iconDesign.ts into build/icon.svg and build/icon.png (512×512, RGBA);
// electron-builder derives the .ico and .icns from the PNG. Run `npx tsx scripts/makeIcon.ts` after a design change.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ICON_LAYERS } from './icon/iconDesign';
import { iconSvg } from './icon/iconSvg';
import { encodePng } from './icon/pngEncoder';
import { rasterize } from './icon/rasterize';

const SIZE = 512;
const svgPath = fileURLToPath(new URL('../build/icon.svg', import.meta.url));
const pngPath = fileURLToPath(new URL('../build/icon.png', import.meta.url));

writeFileSync(svgPath, iconSvg(ICON_LAYERS, 'LAN Party'));
writeFileSync(pngPath, encodePng(SIZE, SIZE, rasterize(ICON_LAYERS, SIZE)));
process.stdout.write(`wrote ${svgPath} and ${pngPath} (${SIZE}×${SIZE})\n`);
