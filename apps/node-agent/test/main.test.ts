import { fileURLToPath } from 'node:url';
import { describeComponentBinary } from '@gardener-ts/testing';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describeComponentBinary({
  app: 'node-agent',
  validConfig: fixture('config.yaml'),
  brokenConfigs: [
    { file: fixture('broken-secret-name.yaml'), mentions: ['controllers.operatingSystemConfig.secretName'] },
  ],
});
