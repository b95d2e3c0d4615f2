// The clients under test read OpenAI's token fields (prompt_tokens, completion_tokens, ...), which
// the gateway sends only to an organization that opts in with `usage_format: openai` (the default,
// `spec`, is the spec's Usage exactly; docs/clients.md says which client wants which).
import type { GatewayConfig } from '../../../src/config/gateway-config';
import { DEMO_ORGANIZATION } from '../../../src/embedded-default';

export function withOpenAiUsageFormat(config: GatewayConfig): void {
  const organization = config.organizations.find((o) => o.id === DEMO_ORGANIZATION);
  if (!organization) throw new Error(`no ${DEMO_ORGANIZATION} in the test configuration`);
  organization.usage_format = 'openai';
}
