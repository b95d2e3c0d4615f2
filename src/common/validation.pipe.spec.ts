import 'reflect-metadata';
import type { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ApiError, RequestValidationError } from './api-error';
import { ApiValidationPipe, spec400 } from './validation.pipe';

class InnerDto {
  @IsString()
  name!: string;
}

class OuterDto {
  @IsString()
  model!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => InnerDto)
  inner?: InnerDto;

  @IsOptional()
  @IsString({ ...spec400('bad_voice') })
  voice?: string;

  [field: string]: unknown;
}

class StrictInnerDto {
  @IsObject()
  @ValidateNested()
  @Type(() => InnerDto)
  strict!: InnerDto;
}

class AllOptionalDto {
  @IsOptional()
  @IsString()
  model?: string;
}

const pipe = new ApiValidationPipe();
const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype, data: undefined });

async function rejection(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
  return pipe.transform(value, metadata).then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('ApiValidationPipe', () => {
  it('returns an instance of the DTO with the fields it does not declare kept', async () => {
    const value = await pipe.transform({ model: 'm', inner: { name: 'n' }, max_tokens: 5 }, body(OuterDto));
    expect(value).toBeInstanceOf(OuterDto);
    expect((value as OuterDto).inner).toBeInstanceOf(InnerDto);
    expect(value).toMatchObject({ model: 'm', max_tokens: 5 });
  });

  it('reports nested failures as 422 issues located in the body', async () => {
    const error = (await rejection({ model: 'm', inner: { name: 3 } }, body(OuterDto))) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.detail).toEqual([{ loc: ['body', 'inner', 'name'], msg: 'name must be a string', type: 'isString', input: 3 }]);
  });

  it('reports a nested value of the wrong kind once, by its own rule, without the generic nested message', async () => {
    const own = (await rejection({ model: 'm', strict: 5 }, body(StrictInnerDto))) as RequestValidationError;
    expect(own.detail).toEqual([{ loc: ['body', 'strict'], msg: 'strict must be an object', type: 'isObject', input: 5 }]);
    const alone = (await rejection({ model: 'm', inner: 5 }, body(OuterDto))) as RequestValidationError;
    expect(alone.detail.map((issue) => issue.type)).toEqual(['nestedValidation']);
  });

  it("turns a constraint marked as one of the spec's 400 conditions into a 400 envelope", async () => {
    const error = (await rejection({ model: 'm', voice: 7 }, body(OuterDto))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.toBody()).toEqual({ error: { message: 'voice must be a string', type: 'invalid_request_error', param: 'voice', code: 'bad_voice' } });
    expect(error.status).toBe(400);
  });

  it.each([[[]], ['text'], [42], [Buffer.from('{}')]])('validates %p as an object without fields', async (value) => {
    const error = (await rejection(value, body(OuterDto))) as RequestValidationError;
    expect(error.detail.map((issue) => issue.loc)).toEqual([['body', 'model']]);
  });

  it('refuses a value that is not an object even when no field is required', async () => {
    const error = (await rejection(['a'], body(AllOptionalDto))) as RequestValidationError;
    expect(error.detail).toEqual([{ loc: ['body', 'body'], msg: 'Validation failed (object is expected)', type: 'isObject', input: undefined }]);
  });

  it('validates a missing body as an empty one', async () => {
    await expect(pipe.transform(undefined, body(AllOptionalDto))).resolves.toBeInstanceOf(AllOptionalDto);
    await expect(rejection(null, body(OuterDto))).resolves.toBeInstanceOf(RequestValidationError);
  });

  it('locates query failures in the query and route param failures in the path', async () => {
    const query = (await rejection({}, { type: 'query', metatype: OuterDto })) as RequestValidationError;
    expect(query.detail[0].loc).toEqual(['query', 'model']);
    const param = (await rejection({}, { type: 'param', metatype: OuterDto })) as RequestValidationError;
    expect(param.detail[0].loc).toEqual(['path', 'model']);
  });

  it('hands over values of primitive or untyped declarations and custom decorators as they are', async () => {
    const raw = { start_time: '1' };
    await expect(pipe.transform('images', { type: 'param', metatype: String, data: 'operation' })).resolves.toBe('images');
    await expect(pipe.transform(raw, { type: 'query', metatype: Object })).resolves.toBe(raw);
    await expect(pipe.transform(raw, { type: 'custom', metatype: OuterDto })).resolves.toBe(raw);
    await expect(pipe.transform(raw, { type: 'query' })).resolves.toBe(raw);
  });

  it('keeps prototype keys away from the instance and what it passes on', async () => {
    const query = Object.assign(Object.create(null) as Record<string, unknown>, { model: 'm', constructor: 'x', ['__proto__']: ['a'] });
    const value = (await pipe.transform(query, { type: 'query', metatype: OuterDto })) as OuterDto;
    expect(Object.getPrototypeOf(value)).toBe(OuterDto.prototype);
    expect(Object.hasOwn(value, 'constructor')).toBe(false);
    expect(Object.hasOwn(value, '__proto__')).toBe(false);
  });

  it('passes other fields on at every depth, including one named prototype', async () => {
    const tool = { type: 'function', function: { parameters: { properties: { prototype: { type: 'string' } } } } };
    const value = await pipe.transform({ model: 'm', tools: [tool] }, body(OuterDto));
    expect(value).toMatchObject({ tools: [tool] });
  });
});
