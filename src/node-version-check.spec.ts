import { nodeVersionProblem, REQUIRED_NODE_MAJOR } from './node-version-check';

describe('nodeVersionProblem', () => {
  it.each(['24.0.0', '24.21.0', '25.1.0', '30.0.0'])('accepts Node %s', (version) => {
    expect(nodeVersionProblem(version, 24)).toBeNull();
  });

  it.each(['23.11.1', '20.20.2', '18.0.0', '0.10.48', 'garbage'])('refuses Node %s in one line that names both versions', (version) => {
    const line = nodeVersionProblem(version, 24)!;
    expect(line).toMatch(new RegExp(`^inference gateway needs Node\\.js >= 24 \\(this is ${version.replace(/\./g, '\\.')}\\); run scripts/setup\\.sh`));
    expect(line).not.toContain('\n');
  });

  it('passes on the Node running these tests', () => {
    expect(nodeVersionProblem(process.versions.node, REQUIRED_NODE_MAJOR)).toBeNull();
  });
});
