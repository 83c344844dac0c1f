import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDescendingPathProblems, volumeMountProblems, volumeProblems } from './pod-volumes.js';

const messages = (problems: { field: string; message: string }[]) => problems.map((p) => `${p.field}: ${p.message}`);

describe('pod volume validation', () => {
  it('accepts the volumes of an ordinary pod', () => {
    const { problems, names } = volumeProblems(
      [
        { name: 'config', configMap: { name: 'cm', items: [{ key: 'a', path: 'dir/a.yaml' }] } },
        {
          name: 'token',
          projected: {
            sources: [
              { serviceAccountToken: { path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            ],
          },
        },
        { name: 'scratch', emptyDir: {} },
      ],
      'spec.volumes',
    );
    expect(problems).toEqual([]);
    expect([...names]).toEqual(['config', 'token', 'scratch']);
  });

  it('refuses names that are not DNS labels, duplicates, no source and two sources', () => {
    const { problems, names } = volumeProblems(
      [
        { name: '../../x', secret: { secretName: 's' } },
        { name: 'a', emptyDir: {} },
        { name: 'a', emptyDir: {} },
        { name: 'b' },
        { name: 'c', emptyDir: {}, hostPath: { path: '/' } },
      ],
      'spec.volumes',
    );
    expect(messages(problems)).toEqual([
      `spec.volumes[0].name: Invalid value: "../../x": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'spec.volumes[2].name: Duplicate value: "a"',
      'spec.volumes[3]: Required value: must specify a volume type',
      'spec.volumes[4].emptyDir: Forbidden: may not specify more than 1 volume type',
    ]);
    expect([...names]).toEqual(['a']);
  });

  it('refuses item paths that step out', () => {
    const { problems } = volumeProblems(
      [
        {
          name: 's',
          secret: {
            secretName: 's',
            items: [
              { key: 'k', path: '../../etc/passwd' },
              { key: 'k', path: '/abs' },
              { key: 'k', path: '..data' },
            ],
          },
        },
      ],
      'spec.volumes',
    );
    expect(messages(problems)).toEqual([
      `spec.volumes[0].secret.items[0].path: Invalid value: "../../etc/passwd": must not contain '..'`,
      'spec.volumes[0].secret.items[1].path: Invalid value: "/abs": must be a relative path',
      `spec.volumes[0].secret.items[2].path: Invalid value: "..data": must not start with '..'`,
    ]);
  });

  it('checks mounts: existing volume, non-empty unique mountPath, subPath relative without ..', () => {
    const problems = volumeMountProblems(
      [
        { name: 'a', mountPath: '/data' },
        { name: 'missing', mountPath: '/data', subPath: '../x' },
        { name: 'a', mountPath: '', subPathExpr: '/$(POD)' },
      ],
      new Set(['a']),
      'spec.containers[0].volumeMounts',
    );
    expect(messages(problems)).toEqual([
      'spec.containers[0].volumeMounts[1].name: Not found: "missing"',
      'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique',
      `spec.containers[0].volumeMounts.subPath: Invalid value: "../x": must not contain '..'`,
      'spec.containers[0].volumeMounts[2].mountPath: Required value',
      'spec.containers[0].volumeMounts.subPathExpr: Invalid value: "/$(POD)": must be a relative path',
    ]);
  });

  it('property: a descending path is accepted exactly when it is relative and has no ".." element', () => {
    const segment = fc.constantFrom('a', 'b.txt', '..', '.', '', '...', '..a');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.boolean(), (segments, absolute) => {
        const path = (absolute ? '/' : '') + segments.join('/');
        const ok = !path.startsWith('/') && !segments.includes('..');
        expect(localDescendingPathProblems(path, 'p').length === 0).toBe(ok);
      }),
    );
  });
});
