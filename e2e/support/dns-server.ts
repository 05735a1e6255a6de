import dgram from 'node:dgram';

/**
 * A tiny authoritative DNS server on 127.0.0.1 for specs: it answers every A query with the
 * address it was given (what a hostile record or DNS rebinding does) and every other query with no
 * records. Given several, it answers them in turn, the last one from then on (a rebinding name:
 * the first answer passes a check, the next one points inside). `queries` counts the A queries.
 * Enough for Node's resolver (RFC 1035 messages over UDP); nothing else is implemented.
 */
export class DnsServer {
  private readonly socket = dgram.createSocket('udp4');
  private answers: readonly string[];
  queries = 0;

  constructor(answerA: string | readonly string[]) {
    this.answers = typeof answerA === 'string' ? [answerA] : answerA;
    this.socket.on('message', (query, remote) => {
      const response = this.respond(query);
      if (response) this.socket.send(response, remote.port, remote.address);
    });
  }

  /** From now on, answers these in turn (the last one from then on), as a fresh name would. */
  answer(answers: readonly string[]): void {
    this.answers = answers;
    this.queries = 0;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', resolve));
    return this;
  }

  get address(): string {
    return `127.0.0.1:${this.socket.address().port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private respond(query: Buffer): Buffer | undefined {
    if (query.length < 12) return undefined;
    // The question: labels up to a zero byte, then QTYPE and QCLASS.
    let offset = 12;
    while (offset < query.length && query[offset] !== 0) offset += query[offset]! + 1;
    const questionEnd = offset + 5;
    if (questionEnd > query.length) return undefined;
    const qtype = query.readUInt16BE(offset + 1);
    const question = query.subarray(12, questionEnd);
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(0x8180, 2); // response, recursion desired + available, no error
    header.writeUInt16BE(1, 4); // one question
    const isA = qtype === 1;
    header.writeUInt16BE(isA ? 1 : 0, 6); // answers
    if (!isA) return Buffer.concat([header, question]);
    const answer = Buffer.alloc(16);
    answer.writeUInt16BE(0xc00c, 0); // name: pointer to the question's
    answer.writeUInt16BE(1, 2); // A
    answer.writeUInt16BE(1, 4); // IN
    answer.writeUInt32BE(5, 6); // TTL
    answer.writeUInt16BE(4, 10); // RDLENGTH
    const address = this.answers[Math.min(this.queries, this.answers.length - 1)]!;
    this.queries++;
    address.split('.').forEach((octet, index) => answer.writeUInt8(Number(octet), 12 + index));
    return Buffer.concat([header, question, answer]);
  }
}
