// The 422 body: the spec's detail[] kept, plus an `error` object naming the first failing field.
import { RequestValidationError, paramOf } from './api-error';

describe('paramOf', () => {
  it('writes a location as clients do, indexes in brackets, without where it came from', () => {
    expect(paramOf(['body', 'messages', 0, 'content', 1, 'type'])).toBe('messages[0].content[1].type');
    expect(paramOf(['query', 'start_time'])).toBe('start_time');
    expect(paramOf(['body', 0])).toBe('[0]');
    expect(paramOf(['body'])).toBeNull();
  });
});

describe('RequestValidationError.toBody', () => {
  it('keeps detail[] as it is and names the first issue in error', () => {
    const detail = [
      { loc: ['body', 'speed'], msg: 'speed must not be greater than 4', type: 'max', input: 9 },
      { loc: ['body', 'input'], msg: 'input must be a string', type: 'isString', input: undefined },
    ];
    expect(new RequestValidationError(detail).toBody()).toEqual({
      detail,
      error: {
        message: 'speed: must not be greater than 4 (and 1 more in detail)',
        type: 'invalid_request_error',
        param: 'speed',
        code: 'invalid_value',
      },
    });
  });

  it('calls an absent value a missing parameter, and keeps a message that does not start with the name', () => {
    const missing = new RequestValidationError([{ loc: ['query', 'start_time'], msg: 'Field required', type: 'missing', input: null }]);
    expect(missing.toBody().error).toEqual({
      message: 'start_time: Field required',
      type: 'invalid_request_error',
      param: 'start_time',
      code: 'missing_required_parameter',
    });
    const absent = new RequestValidationError([{ loc: ['body', 'messages', 0, 'role'], msg: 'role must be one of user', type: 'isIn', input: undefined }]);
    expect(absent.toBody().error).toMatchObject({ message: 'messages[0].role: must be one of user', code: 'missing_required_parameter' });
  });
});
