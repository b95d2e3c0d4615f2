import 'reflect-metadata';
import { IsInt, IsOptional, IsString, MetadataStorage, ValidateNested, validate } from 'class-validator';
import { Type, plainToInstance } from 'class-transformer';
import { memoizeValidationMetadata } from './validation-metadata-cache';

class Part {
  @IsString()
  type!: string;
}

class Base {
  @IsString()
  model!: string;
}

class Request extends Base {
  @IsInt({ groups: ['strict'] })
  @IsOptional()
  max_tokens?: number;

  @ValidateNested({ each: true })
  @Type(() => Part)
  parts!: Part[];
}

const rulesOf = (storage: MetadataStorage, target: Function, groups?: string[]) =>
  storage.getTargetValidationMetadatas(target, '', false, false, groups).map((rule) => `${rule.propertyName}:${rule.type}:${rule.name ?? ''}`);

describe('memoizeValidationMetadata', () => {
  it('answers exactly what class-validator answers, per class and per group set, including inherited rules', () => {
    const plain = new MetadataStorage();
    const memo = new MetadataStorage();
    for (const storage of [plain, memo]) {
      storage.addValidationMetadata({ ...rule(Base, 'model'), name: 'isString' } as never);
      storage.addValidationMetadata({ ...rule(Request, 'max_tokens'), name: 'isInt', groups: ['strict'] } as never);
    }
    memoizeValidationMetadata(memo);
    for (const groups of [undefined, [], ['strict'], ['other']]) {
      expect(rulesOf(memo, Request, groups)).toEqual(rulesOf(plain, Request, groups));
    }
    expect(rulesOf(memo, Request)).toEqual(['max_tokens:customValidation:isInt', 'model:customValidation:isString']);
    expect(rulesOf(memo, Request, ['strict'])).toEqual(['max_tokens:customValidation:isInt']);
    expect(rulesOf(memo, Request, ['other'])).toEqual([]);
  });

  it('returns the same frozen answer twice and forgets it when a rule is added', () => {
    const memo = new MetadataStorage();
    memo.addValidationMetadata({ ...rule(Base, 'model'), name: 'isString' } as never);
    memoizeValidationMetadata(memo);
    memoizeValidationMetadata(memo);
    const first = memo.getTargetValidationMetadatas(Base, '', false, false);
    expect(memo.getTargetValidationMetadatas(Base, '', false, false)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    memo.addValidationMetadata({ ...rule(Base, 'seed'), name: 'isInt' } as never);
    expect(memo.getTargetValidationMetadatas(Base, '', false, false).map((r) => r.propertyName)).toEqual(['model', 'seed']);
  });

  it('leaves validation results unchanged on the global storage', async () => {
    const body = { model: 7, max_tokens: 'x', parts: [{ type: 1 }, { type: 'text' }] };
    const validateBoth = () => Promise.all([validate(plainToInstance(Request, body)), validate(plainToInstance(Request, body), { groups: ['strict'] })]);
    const before = await validateBoth();
    memoizeValidationMetadata();
    const after = await validateBoth();
    expect(after).toEqual(before);
    expect(after.map((errors) => errors.map((error) => error.property).sort())).toEqual([['max_tokens', 'model', 'parts'], ['max_tokens']]);
  });
});

function rule(target: Function, propertyName: string) {
  return { type: 'customValidation', target, propertyName, constraints: [], validationOptions: undefined, always: undefined, each: false, context: undefined, groups: [] };
}
