// Simulated OpenAI `/v1/moderations` (omni-moderation): text containing a violent word is flagged
// as `violence`; everything else is clean. Modes are keyed on the request's `model`.
import type { FastifyRequest } from 'fastify';
import { applyMode } from './simulator-route';
import type { SimulatorRoutes } from './simulator-route';

const CATEGORIES = [
  'harassment', 'harassment/threatening', 'hate', 'hate/threatening', 'illicit', 'illicit/violent', 'self-harm',
  'self-harm/instructions', 'self-harm/intent', 'sexual', 'sexual/minors', 'violence', 'violence/graphic',
];
const VIOLENT = /\b(kill|attack|stab)\b/i;
const FLAGGED_SCORE = 0.97;
const CLEAN_SCORE = 0.0012;

type ModerationInput = string | string[] | { type: string; text?: string; image_url?: { url: string } }[];

export const moderationRoutes: SimulatorRoutes = (app, control) => {
  app.post('/v1/moderations', async (req: FastifyRequest<{ Body: { model?: string; input?: ModerationInput } }>, reply) => {
    const model = req.body?.model ?? 'omni-moderation-latest';
    control.record(model, '/v1/moderations', req.body);
    if (await applyMode(control, model, reply)) return;
    const items = Array.isArray(req.body?.input) ? req.body.input : [req.body?.input ?? ''];
    const text = items.map((item) => (typeof item === 'string' ? item : (item.text ?? ''))).join('\n');
    const hasImage = items.some((item) => typeof item !== 'string' && item.type === 'image_url');
    const violent = VIOLENT.test(text);
    const appliedTo: ('text' | 'image')[] = hasImage ? ['text', 'image'] : ['text'];
    return {
      id: `modr-sim-${req.id}`,
      model,
      results: [{
        flagged: violent,
        categories: Object.fromEntries(CATEGORIES.map((c) => [c, violent && c === 'violence'])),
        category_scores: Object.fromEntries(CATEGORIES.map((c) => [c, violent && c === 'violence' ? FLAGGED_SCORE : CLEAN_SCORE])),
        category_applied_input_types: Object.fromEntries(CATEGORIES.map((c) => [c, appliedTo])),
      }],
    };
  });
};
