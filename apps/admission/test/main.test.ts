import { fileURLToPath } from 'node:url';
import { describeComponentBinary } from '@gardener-ts/testing';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describeComponentBinary({
  app: 'admission',
  validConfig: fixture('config.yaml'),
  brokenConfigs: [{ file: fixture('broken-operation-mode.yaml'), mentions: ['server.resourceAdmissionConfiguration.operationMode'] }],
});
