// A small authoritative DNS server over UDP for the mongodb+srv tests: answers SRV, TXT and A
// questions for the names it was given and NXDOMAIN for everything else. Enough of RFC 1035 for one
// question per query and answers that fit one datagram.
import { createSocket, type RemoteInfo } from 'node:dgram';

export type DnsRecord =
  | { type: 'SRV'; priority: number; weight: number; port: number; target: string }
  | { type: 'TXT'; text: string }
  | { type: 'A'; address: string };

const TYPE = { A: 1, TXT: 16, SRV: 33 } as const;

export interface DnsServer {
  address: string;
  /** Questions answered so far, as `TYPE name`. */
  readonly questions: string[];
  close(): Promise<void>;
}

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.');
  return Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)])),
    Buffer.from([0]),
  ]);
}

function rdata(record: DnsRecord): Buffer {
  if (record.type === 'A') return Buffer.from(record.address.split('.').map(Number));
  if (record.type === 'TXT')
    return Buffer.concat([Buffer.from([record.text.length]), Buffer.from(record.text)]);
  const fixed = Buffer.alloc(6);
  fixed.writeUInt16BE(record.priority, 0);
  fixed.writeUInt16BE(record.weight, 2);
  fixed.writeUInt16BE(record.port, 4);
  return Buffer.concat([fixed, encodeName(record.target)]);
}

/** The question's name, type and where it ends, or undefined for a malformed query. */
function readQuestion(query: Buffer): { name: string; type: number; end: number } | undefined {
  const labels: string[] = [];
  let at = 12;
  while (at < query.length && query[at] !== 0) {
    const length = query[at]!;
    labels.push(query.subarray(at + 1, at + 1 + length).toString());
    at += length + 1;
  }
  if (at + 5 > query.length) return undefined;
  return { name: labels.join('.').toLowerCase(), type: query.readUInt16BE(at + 1), end: at + 5 };
}

function answer(query: Buffer, records: Map<string, DnsRecord[]>, seen: string[]): Buffer | undefined {
  const question = readQuestion(query);
  if (!question) return undefined;
  const type = Object.entries(TYPE).find(([, code]) => code === question.type)?.[0] ?? String(question.type);
  seen.push(`${type} ${question.name}`);
  const known = records.get(question.name);
  const matching = (known ?? []).filter((r) => TYPE[r.type] === question.type);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0); // id
  // response, authoritative, recursion desired copied, recursion available; NXDOMAIN for unknown names
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | (known ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(matching.length, 6);
  const answers = matching.map((record) => {
    const data = rdata(record);
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the question's name
    fixed.writeUInt16BE(TYPE[record.type], 2);
    fixed.writeUInt16BE(1, 4); // IN
    fixed.writeUInt32BE(5, 6); // TTL
    fixed.writeUInt16BE(data.length, 10);
    return Buffer.concat([fixed, data]);
  });
  return Buffer.concat([header, query.subarray(12, question.end), ...answers]);
}

/** Starts the server on a free loopback UDP port with `records` (keyed by lower-case name). */
export async function startDnsServer(records: Record<string, DnsRecord[]>): Promise<DnsServer> {
  const table = new Map(Object.entries(records).map(([name, list]) => [name.toLowerCase(), list]));
  const questions: string[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (query: Buffer, from: RemoteInfo) => {
    const response = answer(query, table, questions);
    if (response) socket.send(response, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
