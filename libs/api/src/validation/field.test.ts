import { describe, expect, it } from 'vitest';
import { FieldPath, duplicate, forbidden, invalid, invalidStatus, notSupported, required, tooLong } from './field.js';

describe('field errors', () => {
  const path = FieldPath.root('spec', 'provider').child('workers').index(0).child('labels').key('a/b');

  it('build paths with indices and keys', () => {
    expect(path.toString()).toBe('spec.provider.workers[0].labels[a/b]');
  });

  it('word messages like Kubernetes', () => {
    const p = FieldPath.root('spec', 'x');
    expect(required(p).message).toBe('spec.x: Required value');
    expect(required(p, 'must be set').message).toBe('spec.x: Required value: must be set');
    expect(invalid(p, '1.x', 'bad').message).toBe('spec.x: Invalid value: "1.x": bad');
    expect(invalid(p, 3).message).toBe('spec.x: Invalid value: 3');
    expect(notSupported(p, 'c', ['a', 'b']).message).toBe('spec.x: Unsupported value: "c": supported values: "a", "b"');
    expect(forbidden(p, 'no').message).toBe('spec.x: Forbidden: no');
    expect(duplicate(p, 'a').message).toBe('spec.x: Duplicate value: "a"');
    expect(tooLong(p, 'abc', 2).message).toBe('spec.x: Too long: may not be more than 2 bytes');
  });

  it('turn into the 422 Status of an API server', () => {
    const status = invalidStatus('core.gardener.cloud', 'Shoot', 'dev', [required(FieldPath.root('spec', 'region'))]);
    expect(status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'Shoot.core.gardener.cloud "dev" is invalid: spec.region: Required value',
      details: { causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.region' }] },
    });
  });
});
