export const MODEL_STATUS = Symbol('MODEL_STATUS');
