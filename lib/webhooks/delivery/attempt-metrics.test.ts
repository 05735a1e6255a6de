import { describe, expect, it } from 'vitest';
import { ATTEMPT_ERRORS } from '../delivery-contract';
import { attemptOutcome } from './attempt-metrics';

describe('the metrics’ outcome of an attempt', () => {
  it('classes answers by status, so a receiver’s odd codes add no label values', () => {
    expect(attemptOutcome({ status: 204, error: null })).toBe('delivered');
    expect(attemptOutcome({ status: 410, error: 'status-http' })).toBe('http_4xx');
    expect(attemptOutcome({ status: 503, error: 'status-http' })).toBe('http_5xx');
    expect(attemptOutcome({ status: 799, error: 'status-http' })).toBe('http_other');
  });

  it('names every failure without an answer in English, one value per attempt error', () => {
    const failures = ATTEMPT_ERRORS.filter((error) => error !== 'status-http').map((error) => attemptOutcome({ status: null, error }));
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
    ]);
  });
});
