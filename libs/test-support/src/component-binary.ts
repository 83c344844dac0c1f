// The shared end-to-end contract of every gardener-ts app binary: --version, a valid configuration starts it
// with working probes and metrics and SIGTERM stops it cleanly; a broken one exits non-zero naming the field.
import type * as Vitest from 'vitest';
import { startProcess, stopAllProcesses } from './process.js';
import { waitFor } from './wait.js';
import { appBundle } from './workspace.js';

export interface ComponentBinaryCase {
  app: string;
  /** A configuration that must start the app; its probe and metrics ports should be 0 (any free port). */
  validConfig: string;
  /** Configurations that must be refused, and a text the error must contain (the field path). */
  brokenConfigs: { file: string; mentions: string[] }[];
}

interface StartedLine {
  msg: string;
  healthProbes: { port: number };
  metrics: { port: number };
}

// Vitest's functions come from its globals (vitest.shared.ts enables them), not an import: importing 'vitest'
// outside the runner throws, and this package must stay usable from benchmarks and tools.
function vitestGlobals(): typeof Vitest {
  const g = globalThis as unknown as Partial<typeof Vitest>;
  if (!g.describe) throw new Error('describeComponentBinary must run inside vitest with globals enabled');
  return g as typeof Vitest;
}

export function describeComponentBinary(c: ComponentBinaryCase): void {
  const { afterAll, describe, expect, it } = vitestGlobals();
  describe(`${c.app} binary`, () => {
    afterAll(stopAllProcesses);

    it('prints its version', async () => {
      const proc = startProcess(process.execPath, [appBundle(c.app), '--version']);
      expect(await proc.exited).toBe(0);
      expect(proc.output()).toMatch(/^\S+ \d+\.\d+\.\d+\S*\n$/);
    });

    it('starts with a valid configuration, serves /healthz, /readyz and /metrics, and stops on SIGTERM', async () => {
      const proc = startProcess(process.execPath, [appBundle(c.app), '--config', c.validConfig]);
      const started = await waitFor(
        'the Started log line',
        () => {
          const line = proc
            .output()
            .split('\n')
            .find((l) => l.includes('"msg":"Started"'));
          if (!line && proc.child.exitCode !== null) throw new Error(`exited early:\n${proc.output()}`);
          return line ? (JSON.parse(line) as StartedLine) : undefined;
        },
        { timeoutMs: 15_000 },
      );
      const base = `http://127.0.0.1:${started.healthProbes.port}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      await waitFor('readiness', async () => (await fetch(`${base}/readyz`)).status === 200);
      const metrics = await fetch(`http://127.0.0.1:${started.metrics.port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('process_resident_memory_bytes');
      // Every line is structured JSON.
      for (const line of proc.output().split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
      expect(await proc.stop()).toBe(0);
      expect(proc.output()).toContain('"msg":"Stopped"');
    });

    for (const broken of c.brokenConfigs) {
      it(`refuses ${broken.file.split('/').pop()} and names the field`, async () => {
        const proc = startProcess(process.execPath, [appBundle(c.app), '--config', broken.file]);
        const code = await proc.exited;
        expect(code).not.toBe(0);
        for (const text of broken.mentions) expect(proc.output()).toContain(text);
      });
    }
  });
}
