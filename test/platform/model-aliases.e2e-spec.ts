// Issue 27: aliases (chorus) are listed by GET /v1/models with an entry of their own, so clients
// discover them the way they discover models: through the OpenAI SDK's models.list().
import { startTestGateway, TestGateway } from '../support/test-gateway';

type Entry = { id: string; object: string; alias_of?: string[]; status?: string; architecture: { output_modalities: string[] }; pricing: unknown; description: string };

/** What the operator declares for chorus itself (the spec's listing of chorus carries its own placeholder and prices). */
const CHORUS_LISTING = {
  architecture: { modality: 'text->audio', input_modalities: ['text' as const], output_modalities: ['audio' as const], audio_placeholder: { per_clip: 0, tokens_per_second: 25, rounding: 'ceil' as const } },
  pricing: { input: { text: { characters: '0.000015' } }, output: { audio: { tokens: '0.000001' } } },
};

describe('aliases in GET /v1/models (issue 27)', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        config.probe = { interval_ms: 100, stale_after_intervals: 3 };
        Object.assign(config.aliases.find((alias) => alias.id === 'chorus')!, CHORUS_LISTING);
      },
    });
  });
  afterAll(() => gw.close());

  const listed = async () => {
    const entries: Entry[] = [];
    for await (const model of gw.openai().models.list()) entries.push(model as unknown as Entry);
    return entries;
  };

  it('lists every configured alias once, after the models, naming its members', async () => {
    const entries = await listed();
    const ids = entries.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    const aliases = entries.filter((entry) => entry.alias_of);
    expect(aliases.map(({ id, alias_of }) => ({ id, alias_of }))).toEqual(gw.config.aliases.map(({ id, members }) => ({ id, alias_of: members })));
    expect(entries.slice(-aliases.length)).toEqual(aliases);
    const chorus = aliases.find((entry) => entry.id === 'chorus')!;
    expect(chorus).toMatchObject({ object: 'model', architecture: { output_modalities: expect.arrayContaining(['audio']) } });
    for (const member of chorus.alias_of!) expect(ids).toContain(member);
  });

  it('lists an alias\'s declared listing fields as declared, and derives the others', async () => {
    const chorus = (await listed()).find((entry) => entry.id === 'chorus')!;
    expect(chorus).toMatchObject(CHORUS_LISTING);
    expect(chorus.description).toBe(gw.config.aliases.find((alias) => alias.id === 'chorus')!.description);
  });

  it('lists exactly the prices configured: a unit without a price is omitted, never "0"', async () => {
    const entries = await listed();
    for (const model of gw.config.models) expect(entries.find((entry) => entry.id === model.id)!.pricing).toEqual(model.pricing);
    const rhythm = entries.find((entry) => entry.id === 'rhythm')!;
    expect(rhythm.pricing).toEqual({ input: { audio: { tokens: '0.0000004' } }, output: {} });
  });

  it('shows an alias warm once a member is', async () => {
    // A bound on the wait for the first probes, not a timing assertion: a busy machine may take long.
    const deadline = Date.now() + 25_000;
    let status: string | undefined;
    while (status !== 'warm' && Date.now() < deadline) {
      status = (await listed()).find((entry) => entry.id === 'chorus')?.status;
      if (status !== 'warm') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe('warm');
  }, 30_000);

  it('serves the listed alias id as a model', async () => {
    const speech = await gw.openai().audio.speech.create({ model: 'chorus', voice: 'vivian', input: 'Hello.', response_format: 'wav' });
    expect(speech.headers.get('content-type')).toBe('audio/wav');
    expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(44);
  });
});
