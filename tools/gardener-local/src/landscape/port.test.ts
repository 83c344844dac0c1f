import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DefaultLandscapePort, landscapePort } from './port.js';

describe('landscapePort', () => {
  it('starts a new landscape on --port, else on 6443', () => {
    expect(landscapePort(undefined, undefined, '/d')).toEqual({ port: DefaultLandscapePort });
    expect(landscapePort('34611', undefined, '/d')).toEqual({ port: 34611 });
  });

  it('resumes a landscape on its port, with or without --port naming it', () => {
    expect(landscapePort(undefined, 34611, '/d')).toEqual({ port: 34611 });
    expect(landscapePort('34611', 34611, '/d')).toEqual({ port: 34611 });
  });

  it('refuses another port for an existing landscape, naming the data dir and the port to use', () => {
    const result = landscapePort('34622', 34611, '/data/landscape');
    expect(result).toEqual({ error: expect.stringContaining('the landscape in /data/landscape serves on port 34611') });
    expect((result as { error: string }).error).toContain('--port 34611');
  });

  it('refuses what is no port number', () => {
    for (const bad of ['', 'abc', '-1', '65536', '1.5', '0x10'])
      expect(landscapePort(bad, undefined, '/d')).toEqual({
        error: expect.stringContaining('--port must be a port number'),
      });
  });

  it('never starts a resumed landscape on a port other than its own', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: 70000 }).map(String), { nil: undefined }),
        fc.integer({ min: 1, max: 65535 }),
        (requested, previous) => {
          const result = landscapePort(requested, previous, '/d');
          if ('port' in result) expect(result.port).toBe(previous);
        },
      ),
    );
  });
});
