// The conformance suite against all three backends; etcd runs as a real process on free loopback ports.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { EtcdStorage, FileStorage, MemoryStorage, encryptionTransformer } from '../../src/storage/index.js';
import { describeStorageConformance } from './conformance.js';
import { startEtcd, type EtcdProcess } from './etcd-process.js';

let tempRoot: string;

beforeAll(async () => {
  tempRoot = await mkdtemp(join(tmpdir(), 'storage-conformance-'));
});

afterAll(async () => {
  await rm(tempRoot, { recursive: true, force: true });
});

describeStorageConformance('memory', async () => new MemoryStorage());

let fileStores = 0;
describeStorageConformance('file', async () => {
  const storage = new FileStorage(join(tempRoot, `store-${++fileStores}`));
  await storage.open();
  return storage;
});

describe('with a real etcd', () => {
  let etcd: EtcdProcess | undefined;
  // Fails (never skips) when etcd is missing, with a message that says how to install it.
  beforeAll(async () => {
    etcd = await startEtcd();
  });
  afterAll(async () => {
    await etcd?.stop();
  });

  describeStorageConformance('etcd', async () => {
    const storage = new EtcdStorage({ endpoints: [etcd!.endpoint] });
    await storage.open();
    return storage;
  });

  // Encryption at rest of every resource (--encryption-provider-config): reads, lists, watches and deletes decrypt.
  describeStorageConformance('etcd with aesgcm encryption', async () => {
    const storage = new EtcdStorage({
      endpoints: [etcd!.endpoint],
      transformer: encryptionTransformer(`apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources: [{ resources: ["*.*"], providers: [{ aesgcm: { keys: [{ name: k, secret: ${randomBytes(32).toString('base64')} }] } }] }]
`),
    });
    await storage.open();
    return storage;
  });
});
