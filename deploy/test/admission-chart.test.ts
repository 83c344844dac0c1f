// The admission chart's webhook configurations, rendered with the real helm as the local landscape renders them
// (`helm template gardener-admission deploy/charts/admission --namespace garden`): the same webhooks the app's own
// admissionWebhookConfigurations() builds, pointing at the chart's Service, and the permission to write their caBundle.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { admissionWebhookConfigurations, WEBHOOK_CONFIGURATION_NAME } from '@gardener-ts/admission-plugins';
import { workspaceRoot } from '@gardener-ts/testing';

const run = promisify(execFile);
const root = workspaceRoot();
const helmBinary = join(root, 'tools', 'k8s-binaries', 'vendor', 'helm');
const helmHome = mkdtempSync(join(tmpdir(), 'gardener-ts-helm-admission-'));

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; [key: string]: any };
let manifests: Manifest[] = [];

beforeAll(async () => {
  const env = {
    ...process.env,
    HELM_CACHE_HOME: join(helmHome, 'cache'),
    HELM_CONFIG_HOME: join(helmHome, 'config'),
    HELM_DATA_HOME: join(helmHome, 'data'),
  };
  const chart = join('deploy', 'charts', 'admission');
  await run(helmBinary, ['dependency', 'build', chart], { cwd: root, env });
  const { stdout } = await run(helmBinary, ['template', 'gardener-admission', chart, '--namespace', 'garden'], {
    cwd: root,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  manifests = parseAllDocuments(stdout)
    .filter((d) => d.contents !== null)
    .map((d) => d.toJS() as Manifest);
}, 120_000);

afterAll(() => rmSync(helmHome, { recursive: true, force: true }));

const find = (kind: string) => manifests.filter((m) => m.kind === kind);

describe('chart admission webhooks', () => {
  it('renders the Mutating and ValidatingWebhookConfiguration the app builds, pointing at the chart’s Service', () => {
    const service = find('Service')[0]!;
    const expected = admissionWebhookConfigurations(
      { service: { namespace: 'garden', name: service.metadata.name, port: 443 } },
      '',
    );
    for (const want of expected) {
      const [got] = find(want.kind!);
      expect(got?.metadata.name).toBe(WEBHOOK_CONFIGURATION_NAME);
      // The caBundle is left out: the app writes its own CA at start.
      const withoutCA = want.webhooks.map((w) => ({
        ...w,
        clientConfig: { service: (w.clientConfig as { service: unknown }).service },
      }));
      expect(got!.webhooks).toEqual(withoutCA);
    }
    expect(service.spec.ports).toContainEqual(
      expect.objectContaining({ name: 'webhooks', port: 443, targetPort: 'webhooks' }),
    );
  });

  it('lets the admission controller write the caBundle of exactly its own configurations', () => {
    const role = find('ClusterRole')[0]!;
    expect(role.rules).toContainEqual({
      apiGroups: ['admissionregistration.k8s.io'],
      resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'],
      resourceNames: [WEBHOOK_CONFIGURATION_NAME],
      verbs: ['get', 'update', 'patch'],
    });
  });

  it('renders no webhook configurations when admissionWebhooks.enabled=false', async () => {
    const env = {
      ...process.env,
      HELM_CACHE_HOME: join(helmHome, 'cache'),
      HELM_CONFIG_HOME: join(helmHome, 'config'),
      HELM_DATA_HOME: join(helmHome, 'data'),
    };
    const { stdout } = await run(
      helmBinary,
      [
        'template',
        'gardener-admission',
        join('deploy', 'charts', 'admission'),
        '--set',
        'admissionWebhooks.enabled=false',
      ],
      { cwd: root, env },
    );
    expect(stdout).not.toContain('WebhookConfiguration');
  });
});
