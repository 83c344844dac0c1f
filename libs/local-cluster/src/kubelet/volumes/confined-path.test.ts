import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertResolvesWithin, confinedJoin, isWithin, PathEscapeError } from './confined-path.js';

const ROOT = '/data/pods/uid/volumes';
// Path parts as a Pod spec could write them: names, dots, slashes, absolute paths.
const part = fc
  .array(fc.constantFrom('a', 'b', '.', '..', '/', '', 'x.y', '..a'), { minLength: 1, maxLength: 8 })
  .map((p) => p.join(''));

describe('confinedJoin', () => {
  it('returns a path inside the root or throws a PathEscapeError, never anything else', () => {
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 3 }), fc.boolean(), (parts, allowRoot) => {
        let path: string;
        try {
          path = confinedJoin(ROOT, parts, { allowRoot });
        } catch (err) {
          expect(err).toBeInstanceOf(PathEscapeError);
          return;
        }
        expect(isWithin(ROOT, path)).toBe(true);
        expect(relative(ROOT, path).split('/')).not.toContain('..');
        if (!allowRoot) expect(path).not.toBe(ROOT);
      }),
    );
  });

  it('keeps names that only look like dots', () => {
    expect(confinedJoin(ROOT, ['..data'])).toBe(`${ROOT}/..data`);
    expect(confinedJoin(ROOT, ['a/../b'])).toBe(`${ROOT}/b`);
    expect(() => confinedJoin(ROOT, ['../x'])).toThrow('path "../x" leaves /data/pods/uid/volumes');
    expect(() => confinedJoin(ROOT, ['/x'])).toThrow('is absolute');
    expect(() => confinedJoin(ROOT, ['.'])).toThrow(PathEscapeError);
    expect(confinedJoin(ROOT, ['.'], { allowRoot: true })).toBe(ROOT);
  });
});

describe('assertResolvesWithin', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'confined-'));
    await mkdir(join(dir, 'root', 'inner'), { recursive: true });
    await mkdir(join(dir, 'elsewhere'));
    await symlink(join(dir, 'elsewhere'), join(dir, 'root', 'out'));
    await symlink(join(dir, 'root', 'inner'), join(dir, 'root', 'in'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('accepts paths that exist or not inside the root, also through symlinks that stay inside', async () => {
    await expect(assertResolvesWithin(join(dir, 'root'), join(dir, 'root', 'inner', 'new', 'file'))).resolves.toContain(
      'new',
    );
    await expect(assertResolvesWithin(join(dir, 'root'), join(dir, 'root', 'in', 'file'))).resolves.toContain('in');
  });

  it('refuses paths that resolve outside through a symlink, existing or not below it', async () => {
    await expect(assertResolvesWithin(join(dir, 'root'), join(dir, 'root', 'out'))).rejects.toThrow(PathEscapeError);
    await expect(assertResolvesWithin(join(dir, 'root'), join(dir, 'root', 'out', 'new', 'file'))).rejects.toThrow(
      'resolves through a symlink',
    );
  });
});
