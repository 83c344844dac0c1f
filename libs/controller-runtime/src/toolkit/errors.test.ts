import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gardener-ts/api';
import { CodedError, determineErrorCodes, errorCodesOf, wrapError } from './errors.js';

describe('wrapError', () => {
  it('prefixes the message and keeps the cause', () => {
    const cause = new Error('connection refused');
    const wrapped = wrapError(cause, 'failed to apply Deployment shoot--a/kube-apiserver');
    expect(wrapped.message).toBe('failed to apply Deployment shoot--a/kube-apiserver: connection refused');
    expect(wrapped.cause).toBe(cause);
  });

  it('wraps non-Error values', () => {
    expect(wrapError('plain', 'ctx').message).toBe('ctx: plain');
  });
});

describe('error codes', () => {
  it('collects the codes of CodedErrors anywhere in the chain', () => {
    const inner = new CodedError('credentials rejected', [ErrorCode.InfraUnauthenticated]);
    const err = wrapError(wrapError(inner, 'creating VPC'), 'reconciling Infrastructure');
    expect(errorCodesOf(err)).toEqual([ErrorCode.InfraUnauthenticated]);
    expect(errorCodesOf(new AggregateError([inner, new CodedError('x', [ErrorCode.ConfigurationProblem])]))).toEqual([
      ErrorCode.ConfigurationProblem,
      ErrorCode.InfraUnauthenticated,
    ]);
    expect(errorCodesOf(new Error('plain'))).toEqual([]);
  });

  it("recognises Gardener's message patterns", () => {
    const cases: [string, string[]][] = [
      ['AuthFailure: AWS was not able to validate the provided access credentials', [ErrorCode.InfraUnauthenticated]],
      ['UnauthorizedOperation: You are not authorized to perform this operation', [ErrorCode.InfraUnauthorized]],
      ['VcpuLimitExceeded: You have requested more vCPU capacity', [ErrorCode.InfraQuotaExceeded]],
      ['RequestLimitExceeded: Request limit exceeded.', [ErrorCode.InfraRateLimitsExceeded]],
      ['DependencyViolation: resource sg-1 has a dependent object', [ErrorCode.InfraDependencies]],
      ['InsufficientInstanceCapacity: no capacity in eu-west-1a', [ErrorCode.InfraResourcesDepleted]],
      ['spec.networking.nodes: Invalid value: "10.0.0.0/33"', [ErrorCode.ConfigurationProblem]],
      [
        'pdb kube-system/x is misconfigured and requires zero voluntary evictions',
        [ErrorCode.RetryableConfigurationProblem],
      ],
      ['RetryableError: try again', [ErrorCode.RetryableInfraDependencies]],
      ['something unremarkable happened', []],
    ];
    for (const [message, codes] of cases) expect(determineErrorCodes(new Error(message)), message).toEqual(codes);
  });

  it('reads the messages of the whole cause chain and merges codes already there', () => {
    const err = new Error('reconciling Infrastructure', {
      cause: new CodedError('setup failed', [ErrorCode.ConfigurationProblem], {
        cause: new Error('Throttling: Rate exceeded'),
      }),
    });
    expect(determineErrorCodes(err)).toEqual(
      [ErrorCode.ConfigurationProblem, ErrorCode.InfraRateLimitsExceeded].sort(),
    );
    expect(determineErrorCodes(undefined)).toEqual([]);
  });

  it('is sorted, unique and contains the chain codes, whatever the message (property)', () => {
    const known = Object.values(ErrorCode);
    fc.assert(
      fc.property(fc.string(), fc.subarray(known), fc.string(), (message, codes, outer) => {
        const result = determineErrorCodes(wrapError(new CodedError(message, codes), outer));
        expect([...result].sort()).toEqual(result);
        expect(new Set(result).size).toBe(result.length);
        for (const c of codes) expect(result).toContain(c);
        for (const c of result) expect(known).toContain(c);
      }),
    );
  });
});
