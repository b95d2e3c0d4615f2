// The bounds of the drain after a refused upload, on real sockets: a plain node:http server
// refuses every body at once (as Fastify does when Content-Length is over the limit) and drains.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { drainRefusedUpload, type DrainLimits } from './drain-refused-upload';

const LIMITS: DrainLimits = { maxBytes: 64 * 1024, maxMs: 400 };
const DECLARED = 10 * 1024 * 1024;

interface Client {
  socket: Socket;
  answer: Promise<string>;
}

/** When the server's side of each connection closed, in ms after its request arrived, by arrival. */
const serverClosures: Promise<number>[] = [];

function uploadTo(port: number, declared = DECLARED): Client {
  // Half-open allowed: the client keeps sending after the gateway's FIN, as a client still uploading does.
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  const answer = new Promise<string>((resolve) => {
    const check = () => (received.includes('request_too_large') ? resolve(received) : socket.once('data', check));
    socket.once('data', check);
  });
  return { socket, answer };
}

describe('draining a refused upload', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const arrived = Date.now();
      serverClosures.push(new Promise((resolve) => request.socket.once('close', () => resolve(Date.now() - arrived))));
      drainRefusedUpload(request, LIMITS);
      response.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end('{"error":{"code":"request_too_large"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps reading after the answer and closes once the body has ended (exactly the byte bound discarded)', async () => {
    const client = uploadTo(port, LIMITS.maxBytes);
    expect(await client.answer).toContain('HTTP/1.1 413');
    // The client sends the whole declared body and keeps its connection open: the server closes it.
    client.socket.write(Buffer.alloc(LIMITS.maxBytes, 0x20));
    const closedAfter = await serverClosures[0];
    console.log(`a body of exactly the byte bound, read to its end: closed after ${closedAfter} ms`);
    expect(closedAfter).toBeLessThan(LIMITS.maxMs);
  });

  it('lets a client that has sent exactly the byte bound (of a longer body) go on until the time bound', async () => {
    const client = uploadTo(port);
    await client.answer;
    client.socket.write(Buffer.alloc(LIMITS.maxBytes, 0x20));
    const cutAfter = await serverClosures[1];
    console.log(`exactly the byte bound of a longer body: cut after ${cutAfter} ms (time bound ${LIMITS.maxMs} ms)`);
    expect(cutAfter).toBeGreaterThanOrEqual(LIMITS.maxMs - 20);
  });

  it('cuts the connection one byte past the byte bound, long before the time bound', async () => {
    const client = uploadTo(port);
    await client.answer;
    client.socket.write(Buffer.alloc(LIMITS.maxBytes + 1, 0x20));
    const cutAfter = await serverClosures[2];
    console.log(`one byte past the byte bound, the client still sending: cut after ${cutAfter} ms (time bound ${LIMITS.maxMs} ms)`);
    expect(cutAfter).toBeLessThan(LIMITS.maxMs);
  });

  it('cuts a client that stops sending once the time bound has passed', async () => {
    const client = uploadTo(port);
    await client.answer;
    client.socket.write(Buffer.alloc(1024, 0x20));
    const cutAfter = await serverClosures[3];
    console.log(`a client that stopped sending: cut after ${cutAfter} ms (time bound ${LIMITS.maxMs} ms)`);
    expect(cutAfter).toBeGreaterThanOrEqual(LIMITS.maxMs - 20);
    expect(cutAfter).toBeLessThan(LIMITS.maxMs + 1_000);
  });
});
