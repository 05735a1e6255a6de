/**
 * Whether a URL's host is this machine. Plain http (or SMTP without TLS) is accepted only there:
 * on loopback no one on the network can read or alter the connection.
 */
export function isLoopbackHost(hostname: string): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
}
