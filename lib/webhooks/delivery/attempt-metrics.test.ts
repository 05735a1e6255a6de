import { describe, expect, it } from 'vitest';
import { ATTEMPT_ERRORS } from './contract';
import { attemptOutcome } from './attempt-metrics';
import { verdictOf } from './destinations/http/sender';

const answered = (status: number) => ({ status, verdict: verdictOf(status, undefined) });

describe('the metrics’ outcome of an attempt', () => {
  it('classes answers by status, so a receiver’s odd codes add no label values', () => {
    expect(attemptOutcome(answered(204))).toBe('delivered');
    expect(attemptOutcome(answered(410))).toBe('http_4xx');
    expect(attemptOutcome(answered(503))).toBe('http_5xx');
    expect(attemptOutcome(answered(799))).toBe('http_other');
  });

  it('names every failure without an answer in English, one value per attempt error', () => {
    const failures = ATTEMPT_ERRORS.filter((error) => error !== 'status-http').map((error) =>
      attemptOutcome({ status: null, verdict: { result: 'retry', reason: error, outage: true } }),
    );
    expect(failures).toEqual([
      'timeout',
      'connection_refused',
      'dns',
      'blocked',
      'redirect',
      'network',
      'invalid_header',
      'tls',
      'internal_error',
      'auth_refused',
      'no_route',
      'nack',
      'connection_limit',
      'transform_failed',
    ]);
  });
});
