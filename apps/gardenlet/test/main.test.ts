import { fileURLToPath } from 'node:url';
import { describeComponentBinary } from '@gardener-ts/testing';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describeComponentBinary({
  app: 'gardenlet',
  validConfig: fixture('config.yaml'),
  brokenConfigs: [
    {
      file: fixture('broken-jitter.yaml'),
      mentions: ['gardenClientConnection.kubeconfigValidity.autoRotationJitterPercentageMin'],
    },
  ],
});
