// Log output at LOG_LEVEL=debug (issue 26 item 10): one JSON object per line, Nest's own lines
// included (they were coloured multi-line text), and no credential sent in a query string.
import { Logger } from '@nestjs/common';
import { startTestGateway, TestGateway } from '../support/test-gateway';

const SECRETS = ['sk-gw-query-secret-1', 'query-secret-2', 'query-secret-3', 'query-secret-4'];

describe('log lines at debug level', () => {
  let gw: TestGateway;
  let output = '';
  const lines = () => output.split('\n').filter((line) => line !== '');
  const entries = () => lines().map((line) => JSON.parse(line) as Record<string, any>);

  beforeAll(async () => {
    gw = await startTestGateway({ env: { logLevel: 'debug' }, logStream: { write: (chunk: string) => void (output += chunk) } });
    await fetch(`${gw.baseUrl}/v1/models?api_key=${SECRETS[0]}`);
    await fetch(`${gw.baseUrl}/v1/organization/costs?start_time=0&token=${SECRETS[1]}`, { headers: { authorization: `Bearer ${gw.apiKey}` } });
    await fetch(`${gw.baseUrl}/v1/nope?access_token=${SECRETS[2]}&key=${SECRETS[3]}`);
    // The exception filter logs a 500 this way (an object, then the message) through Nest's Logger.
    new Logger('errors').error({ requestId: 'req-1', err: new Error('boom') }, 'The server failed to process the request.');
  });
  afterAll(() => gw.close());

  it('every line is one JSON object, without ANSI colour codes', () => {
    console.log(`${lines().length} log lines captured; first: ${lines()[0]}`);
    expect(lines().length).toBeGreaterThan(10);
    expect(output).not.toContain('\u001b[');
    for (const line of lines()) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("Nest's start-up lines and Logger calls are among them, with their context", () => {
    const nest = entries().filter((entry) => typeof entry.context === 'string');
    expect(nest.map((entry) => entry.context)).toEqual(expect.arrayContaining(['NestFactory', 'RoutesResolver', 'RouterExplorer']));
    const failure = entries().find((entry) => entry.context === 'errors');
    expect(failure).toMatchObject({ level: 50, msg: 'The server failed to process the request.', requestId: 'req-1', err: { message: 'boom' } });
    expect(failure!.err.stack).toContain('Error: boom');
  });

  it('credentials in query strings are redacted in the request lines', () => {
    for (const secret of SECRETS) expect(output).not.toContain(secret);
    const urls = entries().filter((entry) => entry.req?.url).map((entry) => entry.req.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/v1/models?api_key=[redacted]',
        '/v1/organization/costs?start_time=0&token=[redacted]',
        '/v1/nope?access_token=[redacted]&key=[redacted]',
      ]),
    );
  });
});
