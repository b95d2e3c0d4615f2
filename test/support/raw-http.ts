// A hand-written HTTP/1.1 client over node:net, for what a hostile client does and no HTTP client
// library would: declare a body and never send it, stop half-way through the headers, send a body in
// pieces at its own pace. It reads the first answer as it comes and notices when the server closes.
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  socket: Socket;
  /** Resolves once connected. */
  connected: Promise<void>;
  /** The first answer, once whole (by its Content-Length), or null if the server closed without one. */
  answer: Promise<RawAnswer | null>;
  /** Resolves when the server (or the test) closed the connection. */
  closed: Promise<void>;
  /** Writes, resolving when the bytes were handed to the kernel; false if the connection is gone. */
  write(bytes: string | Buffer): Promise<boolean>;
}

export function openRaw(baseUrl: string): RawConnection {
  const url = new URL(baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => undefined); // a reset is an outcome the tests look at through `closed`/`answer`
  let received = Buffer.alloc(0);
  let settle: (answer: RawAnswer | null) => void = () => undefined;
  const answer = new Promise<RawAnswer | null>((resolve) => (settle = resolve));
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    const parsed = parseAnswer(received);
    if (parsed) settle(parsed);
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closed.then(() => settle(parseAnswer(received)));
  return {
    socket,
    connected: new Promise((resolve) => socket.once('connect', () => resolve())),
    answer,
    closed,
    write: (bytes) =>
      new Promise((resolve) => {
        if (socket.destroyed || !socket.writable) return resolve(false);
        socket.write(bytes, (error) => resolve(!error));
      }),
  };
}

function parseAnswer(bytes: Buffer): RawAnswer | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length'] ?? 0);
  if (bytes.length < end + 4 + length) return null;
  return { status: Number(statusLine.split(' ')[1]), headers, body: bytes.subarray(end + 4, end + 4 + length).toString('utf8') };
}

/** The head of a POST: request line and headers, ending with the blank line. */
export function postHead(path: string, headers: Record<string, string | number>): string {
  return `POST ${path} HTTP/1.1\r\nHost: gateway\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
}

/** One part of a multipart body (a file when `filename` is given). */
export function formPart(boundary: string, name: string, value: string | Buffer, filename?: string): Buffer {
  const disposition = `form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}`;
  const type = filename === undefined ? '' : 'Content-Type: application/octet-stream\r\n';
  return Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(value), Buffer.from('\r\n')]);
}

export const formEnd = (boundary: string) => Buffer.from(`--${boundary}--\r\n`);
