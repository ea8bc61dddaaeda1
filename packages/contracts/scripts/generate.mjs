// Generates TypeScript from ../../proto with buf (binary shipped inside its npm package) and the
// ts-proto plugin. Output goes to src/gen, which is git-ignored: never edit it by hand.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const buf = join(root, 'node_modules', '.bin', 'buf');
rmSync(join(root, 'src', 'gen'), { recursive: true, force: true });
execFileSync(buf, ['generate', '../../proto', '--template', 'buf.gen.yaml'], { cwd: root, stdio: 'inherit' });
