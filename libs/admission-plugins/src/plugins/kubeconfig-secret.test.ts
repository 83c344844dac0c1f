import { describe, expect, it } from 'vitest';
import { staticListers } from '../listers.js';
import { runValidating } from '../chain.js';
import { KubeconfigSecretValidator, kubeconfigProblems } from './kubeconfig-secret.js';
import type { AdmissionAttributes } from '../attributes.js';

const kubeconfig = (user: object) => `apiVersion: v1
kind: Config
clusters:
- name: garden
  cluster:
    server: https://garden.example.com
    certificate-authority-data: Zm9v
users:
- name: robot
  user: ${JSON.stringify(user)}
contexts:
- name: garden
  context: { cluster: garden, user: robot }
current-context: garden
`;

const secretRequest = (data: Record<string, string>, stringData?: Record<string, string>): AdmissionAttributes => ({
  operation: 'CREATE',
  kind: { group: '', version: 'v1', kind: 'Secret' },
  resource: { group: '', version: 'v1', resource: 'secrets' },
  namespace: 'garden-local',
  name: 'kubeconfig',
  object: {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'kubeconfig', namespace: 'garden-local' },
    data,
    ...(stringData ? { stringData } : {}),
  },
  userInfo: { username: 'alice' },
});

describe('KubeconfigSecretValidator', () => {
  it('accepts a kubeconfig with a token', async () => {
    const data = { kubeconfig: Buffer.from(kubeconfig({ token: 'abc' })).toString('base64') };
    expect((await runValidating([KubeconfigSecretValidator], secretRequest(data), staticListers([]))).allowed).toBe(
      true,
    );
  });

  it('refuses exec users, also in stringData as kubectl create secret --from-file writes it', async () => {
    const text = kubeconfig({ exec: { command: '/bin/sh', apiVersion: 'client.authentication.k8s.io/v1' } });
    const result = await runValidating(
      [KubeconfigSecretValidator],
      secretRequest({}, { kubeconfig: text }),
      staticListers([]),
    );
    expect(!result.allowed && result.message).toBe(
      'secrets "kubeconfig" is forbidden: secret contains invalid kubeconfig: user "robot": exec is not supported',
    );
  });

  it('names every file reference', () => {
    expect(kubeconfigProblems(kubeconfig({ tokenFile: '/etc/token', 'client-key': '/k' }))).toEqual([
      'user "robot": tokenFile is not supported',
      'user "robot": client-key is not supported',
    ]);
    expect(kubeconfigProblems(': not yaml: [')).toHaveLength(1);
  });
});
