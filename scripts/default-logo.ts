// Writes api/public/img/logo.png, the logo shown when the settings have none (specification:
// default logo path img/logo.png): the demo seed's newspaper drawing in the default colour #000.
// Run: npx tsx scripts/default-logo.ts
import fs from 'node:fs';
import path from 'node:path';
import { makeLogoPng } from '../seeds/assets/files.ts';

const target = path.resolve('api/public/img/logo.png');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, makeLogoPng('#000000', '#ffffff', 192));
console.log(`wrote ${path.relative(process.cwd(), target)}`);
