import { BigDecimal } from '../../common/big-decimal';
import { FIXTURE_PRICING, fixtureModel } from '../../../test/support/catalog-model.fixture';
import { emptyInputUsage, emptyOutputUsage } from '../usage';
import { CostOutOfRangeError, exactMicros } from './cost-range';
import { price } from './price';
import { roundOnce } from './rounding';

const LIMIT = Number.MAX_SAFE_INTEGER; // 9007199254740991 micros, about 9.007 billion USD

describe('exact money at pricing: a cost is a safe integer of micros or it is refused', () => {
  it('accepts 2^53 - 1 micros and refuses 2^53', () => {
    expect(exactMicros(BigInt(LIMIT), 'cost')).toBe(LIMIT);
    expect(() => exactMicros(BigInt(LIMIT) + 1n, 'cost')).toThrow(CostOutOfRangeError);
    expect(() => exactMicros(-BigInt(LIMIT) - 1n, 'cost')).toThrow(CostOutOfRangeError);
  });

  it('rounds a total of exactly 2^53 - 1 micros, and refuses one micro more', () => {
    expect(roundOnce([BigDecimal.parse(String(LIMIT))]).total).toBe(LIMIT);
    expect(() => roundOnce([BigDecimal.parse(String(LIMIT)), BigDecimal.parse('0.5')])).toThrow(/9007199254740992 USD micros cannot be represented exactly/);
  });

  it('refuses the issue\'s 1e15-token charge instead of pricing it as a float', () => {
    const model = fixtureModel({ pricing: { ...FIXTURE_PRICING, output: { text: { tokens: '10' } } } });
    const output = emptyOutputUsage();
    output.text.tokens = 1e15; // 1e15 x 10 USD = 1e22 micros
    expect(() => price(model, { input: emptyInputUsage(), output })).toThrow(CostOutOfRangeError);
    output.text.tokens = 900_719_925; // 9,007,199,250 USD = 9007199250000000 micros: still exact
    expect(price(model, { input: emptyInputUsage(), output }).costUsdMicros).toBe(9_007_199_250_000_000);
  });
});
