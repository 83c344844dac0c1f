// An app's main.ts in miniature: configuration → manager → controllers → run, through runComponent.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { controllerManagerConfigSpec } from '@gardener-ts/component-config';
import { waitFor } from '@gardener-ts/testing';
import { ConfigMapKind, Manager, controllerFor, runComponent } from '../src/index.js';
import { configMap, useTestCluster } from './fixtures.js';

const env = useTestCluster();

it('runs a manager inside runComponent: ready after cache sync, metrics served, graceful stop on SIGTERM', async () => {
  const { cluster, client } = env;
  const configPath = join(cluster.dir, 'config.yaml');
  await writeFile(
    configPath,
    [
      'apiVersion: controllermanager.config.gardener.cloud/v1alpha1',
      'kind: ControllerManagerConfiguration',
      'logLevel: error',
      'gardenClientConnection:',
      `  kubeconfig: ${cluster.kubeconfigPath}`,
      'server:',
      '  healthProbes: { bindAddress: 127.0.0.1, port: 0 }',
      '  metrics: { bindAddress: 127.0.0.1, port: 0 }',
      '',
    ].join('\n'),
  );
  let exitCode: number | undefined;
  let probes = '';
  let metrics = '';
  const seen: string[] = [];
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  await runComponent(
    {
      spec: controllerManagerConfigSpec,
      setup: async (ctx) => {
        const mgr = await Manager.forComponent(ctx, {
          clusters: { garden: ctx.config.gardenClientConnection.kubeconfig },
        });
        controllerFor(mgr, 'echo')
          .for(ConfigMapKind)
          .complete(async ({ name }) => void seen.push(name));
        await mgr.start();
        probes = `http://127.0.0.1:${ctx.endpoints.healthProbes.port}`;
        metrics = `http://127.0.0.1:${ctx.endpoints.metrics.port}`;
        return () => mgr.stop();
      },
    },
    { argv: ['--config', configPath], exit: (code) => void (exitCode = code), stdout: sink, stderr: sink },
  );
  const readyz = await fetch(`${probes}/readyz?verbose`).then((r) => r.text());
  expect(readyz).toContain('[+]cache-sync ok');
  await client.create(configMap('from-component'));
  await waitFor('the controller to reconcile', () => seen.includes('from-component'));
  expect(await fetch(`${metrics}/metrics`).then((r) => r.text())).toContain(
    'controller_runtime_reconcile_total{controller="echo",result="success"}',
  );

  process.emit('SIGTERM');
  await waitFor('the component to exit', () => exitCode !== undefined);
  expect(exitCode).toBe(0);
});
