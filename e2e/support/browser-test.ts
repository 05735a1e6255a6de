import { expect, test as base } from '@playwright/test';

/**
 * The `test` of every browser spec: it records each Content-Security-Policy violation the pages
 * report (a `securitypolicyviolation` event, across navigations) and fails the test if there was
 * any, so the console's CSP is measured on every page the specs visit. A page that needs to break
 * the policy on purpose can read `cspViolations` instead.
 */
export type CspViolation = { directive: string; blocked: string; source: string };

export const test = base.extend<{ cspViolations: CspViolation[] }>({
  cspViolations: [
    async ({ page }, use) => {
      const violations: CspViolation[] = [];
      await page.exposeFunction('__recordCspViolation', (violation: CspViolation) => void violations.push(violation));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as { __recordCspViolation: (v: CspViolation) => void }).__recordCspViolation;
          report({ directive: event.effectiveDirective, blocked: event.blockedURI, source: `${event.sourceFile}:${event.lineNumber}` });
        });
      });
      await use(violations);
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
