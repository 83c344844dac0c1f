import type { ApiClient } from '@gardener-ts/controller-runtime';
import { describe, expect, it } from 'vitest';
import { renewAt, ServiceAccountTokens, TOKEN_SECONDS } from './service-account-credentials.js';

interface Sent {
  method: string;
  path: string;
  body: { spec: { expirationSeconds: number } };
}

// A TokenRequest endpoint: token-1, token-2, ... valid for the requested seconds from the fake clock.
function fakeApi(clock: { now: number }, fail = () => false) {
  const sent: Sent[] = [];
  const api = {
    transport: {
      request: async (req: Sent) => {
        sent.push(req);
        if (fail()) throw new Error('connection refused');
        const expires = new Date(clock.now + req.body.spec.expirationSeconds * 1000).toISOString();
        return { status: { token: `token-${sent.length}`, expirationTimestamp: expires } };
      },
    },
  } as unknown as Pick<ApiClient, 'transport'>;
  return { api, sent };
}

describe('ServiceAccountTokens', () => {
  it("requests a ServiceAccount's token through the TokenRequest API and reuses it until 80 % of its lifetime", async () => {
    const clock = { now: 1_000_000 };
    const { api, sent } = fakeApi(clock);
    const tokens = new ServiceAccountTokens(api, () => clock.now);
    expect(await tokens.token('deployment-controller')).toBe('token-1');
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/namespaces/kube-system/serviceaccounts/deployment-controller/token',
      body: { kind: 'TokenRequest', spec: { expirationSeconds: TOKEN_SECONDS } },
    });
    clock.now += 0.79 * TOKEN_SECONDS * 1000;
    expect(await tokens.token('deployment-controller')).toBe('token-1');
    clock.now += 0.02 * TOKEN_SECONDS * 1000;
    expect(await tokens.token('deployment-controller')).toBe('token-2');
    expect(sent).toHaveLength(2);
  });

  it('asks once for concurrent callers, keeps one token per ServiceAccount, and retries after a failure', async () => {
    const clock = { now: 0 };
    let down = true;
    const { api, sent } = fakeApi(clock, () => down);
    const tokens = new ServiceAccountTokens(api, () => clock.now);
    await expect(tokens.token('job-controller')).rejects.toThrow(
      'requesting a token for ServiceAccount kube-system/job-controller',
    );
    down = false;
    const [a, b] = await Promise.all([tokens.token('job-controller'), tokens.token('job-controller')]);
    expect(a).toBe(b);
    expect(await tokens.token('node-controller')).not.toBe(a);
    expect(sent.map((r) => r.path.split('/')[6])).toEqual(['job-controller', 'job-controller', 'node-controller']);
  });
});

describe('renewAt', () => {
  it('is 80 % into the lifetime, never before the issue time', () => {
    expect(renewAt(1000, 2000)).toBe(1800);
    expect(renewAt(1000, 500)).toBe(1000);
  });
});
