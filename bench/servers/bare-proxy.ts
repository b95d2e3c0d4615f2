// The baseline the gateway is compared with: Fastify plus an undici Pool forwarding the request body
// as is to UPSTREAM_URL and relaying status, content type and body (streamed) back. No auth, no
// validation, no metering, no durable write: the least any Node proxy on this stack does.
import Fastify from 'fastify';
import { Pool } from 'undici';

const upstream = new Pool(process.env.UPSTREAM_URL!, { connections: 256, pipelining: 1, keepAliveTimeout: 30_000 });
const app = Fastify({ logger: false, bodyLimit: 100 * 1024 * 1024 });

app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

app.post('/v1/chat/completions', async (request, reply) => {
  const response = await upstream.request({
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
    body: request.body as Buffer,
  });
  reply.code(response.statusCode);
  const contentType = response.headers['content-type'];
  if (typeof contentType === 'string') reply.header('content-type', contentType);
  return reply.send(response.body);
});

app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' }).then((url) => {
  process.stdout.write(`bare proxy listening on ${url}\n`);
});
process.once('SIGTERM', () => process.exit(0));
