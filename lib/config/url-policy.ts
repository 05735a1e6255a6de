/**
 * The receiver URL policy's setting (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE_TARGETS): the one
 * server setting a request body's schema depends on (lib/http/operation.ts's BodySettings). The
 * rules themselves are the configurations' (lib/webhooks/configurations/url-policy.ts). No imports.
 */
export type UrlPolicy = {
  /** Plain http receivers, and brokers without TLS, are accepted (local development only). */
  allowHttp: boolean;
  /** Loopback, private, link-local, CGNAT and metadata targets are accepted (local development only). */
  allowPrivateTargets: boolean;
};

export const STRICT_URL_POLICY: UrlPolicy = Object.freeze({ allowHttp: false, allowPrivateTargets: false });
