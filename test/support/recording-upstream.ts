// A pass-through in front of the upstream simulator that records the headers of every call the
// gateway makes (traceparent, authorization), and can answer a call itself instead (an upstream
// failure whose text echoes the credentials it was sent).
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RecordingUpstream {
  url: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

/** `answer`: return `{ status, body }` to answer a call here rather than pass it on. */
export async function startRecordingUpstream(
  targetUrl: string,
  answer: (call: RecordedCall) => { status: number; body: string } | null = () => null,
): Promise<RecordingUpstream> {
  const target = new URL(targetUrl);
  const calls: RecordedCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const call = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: body.toString('latin1') };
      calls.push(call);
      const own = answer(call);
      if (own) {
        res.writeHead(own.status, { 'content-type': 'application/json' }).end(own.body);
        return;
      }
      const forward = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (upstream) => {
          res.writeHead(upstream.statusCode ?? 502, upstream.headers);
          upstream.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}
