/**
 * Request headers that scripts/server-entry.mjs sets from the socket, after deleting whatever a
 * caller sent under these names; keep both files in step.
 */
/** The TCP peer's address (lib/http/client-address.ts). */
export const PEER_ADDRESS_HEADER = 'x-integration-peer-address';
/** The method a caller sent when Fetch cannot represent it (TRACE); it arrives as PATCH. */
export const SENT_METHOD_HEADER = 'x-integration-sent-method';
