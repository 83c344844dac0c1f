import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workspaceRoot } from '@gardener-ts/testing';
import { resourceManagerValues } from '../controller/seed/components.js';
import { HelmRenderer, parseManifests } from './helm.js';

const root = workspaceRoot();
const helm = new HelmRenderer({
  helmBinary: join(root, 'tools/k8s-binaries/vendor/helm'),
  chartsDir: join(root, 'deploy/charts'),
});
afterAll(() => helm.close());

describe('HelmRenderer', () => {
  it("renders the seed's gardener-resource-manager from deploy/charts/resource-manager with the real helm", async () => {
    const objects = await helm.render(
      'resource-manager',
      'gardener-resource-manager',
      'garden',
      resourceManagerValues(),
    );
    const kinds = objects.map((o) => `${o.kind}/${o.metadata?.name}`);
    expect(kinds).toEqual(
      expect.arrayContaining(['Deployment/gardener-resource-manager', 'ConfigMap/gardener-resource-manager-config']),
    );
    const deployment = objects.find((o) => o.kind === 'Deployment') as { metadata: { namespace: string }; spec: any };
    expect(deployment.metadata.namespace).toBe('garden');
    expect(deployment.spec.template.spec.containers[0].image).toMatch(/^gardener-ts\/resource-manager:/);
    const configMap = objects.find((o) => o.kind === 'ConfigMap') as { data: Record<string, string> };
    expect(configMap.data['config.yaml']).toContain('resourceClass: seed');
  });

  it('names helm failures', async () => {
    await expect(helm.render('no-such-chart', 'x', 'garden', {})).rejects.toThrow(/no-such-chart/);
  });

  it('parses multi-document manifests, skipping empty documents', () => {
    expect(
      parseManifests('---\n# only a comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n').map(
        (o) => o.kind,
      ),
    ).toEqual(['ConfigMap']);
  });
});
