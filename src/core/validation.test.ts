import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidationError } from './errors.js';
import { validate } from './validation.js';

const errorsOf = (schema: z.ZodType, body: unknown) => {
  try {
    validate(schema, body);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    const { message, errors } = err as ValidationError;
    return { message, errors };
  }
  throw new Error('expected a ValidationError');
};

describe("validate: Laravel's messages and 422 shape", () => {
  const order = z.object({
    item: z.string().trim().min(1).max(10),
    quantity: z.number().int().min(1).max(1000).default(1),
    email: z.email().optional(),
    url: z.url().optional(),
    tags: z.array(z.string()).optional(),
    gift: z.boolean().optional(),
    size: z.enum(['s', 'm']).optional(),
  });

  it('names the field: required, type, size, format, choice', () => {
    expect(errorsOf(order, {}).errors).toEqual({ item: ['The item field is required.'] });
    expect(errorsOf(order, { item: '   ' }).errors).toEqual({ item: ['The item field is required.'] });
    expect(
      errorsOf(order, {
        item: 'x'.repeat(11),
        quantity: 0,
        email: 'nope',
        url: 'nope',
        tags: 'a',
        gift: 'yes',
        size: 'xl',
      }).errors,
    ).toEqual({
      item: ['The item field must not be greater than 10 characters.'],
      quantity: ['The quantity field must be at least 1.'],
      email: ['The email field must be a valid email address.'],
      url: ['The url field must be a valid URL.'],
      tags: ['The tags field must be an array.'],
      gift: ['The gift field must be true or false.'],
      size: ['The selected size is invalid.'],
    });
    expect(errorsOf(order, { item: 5, quantity: 1.5 }).errors).toEqual({
      item: ['The item field must be a string.'],
      quantity: ['The quantity field must be an integer.'],
    });
  });

  it("the message is the first error, with Laravel's count of the others; a schema's own message wins", () => {
    expect(errorsOf(order, { quantity: 'two', gift: 1 }).message).toBe(
      'The item field is required. (and 2 more errors)',
    );
    expect(errorsOf(order, { item: 'pen', quantity: 2000 })).toEqual({
      message: 'The quantity field must not be greater than 1000.',
      errors: { quantity: ['The quantity field must not be greater than 1000.'] },
    });
    const own = z.object({ name: z.string().min(1, 'Give it a name.') });
    expect(errorsOf(own, { name: '' }).errors).toEqual({ name: ['Give it a name.'] });
    expect(errorsOf(order, []).errors).toEqual({ body: ['The body field must be an object.'] });
  });
});
