/**
 * Stripe's error object and statuses (https://docs.stripe.com/api/errors): the SDK maps the
 * status to its error class (400/404 → StripeInvalidRequestError, 401 → StripeAuthenticationError,
 * 402 → StripeCardError), so both must be right.
 */
export type StripeErrorType =
  | 'api_error'
  | 'card_error'
  | 'idempotency_error'
  | 'invalid_request_error'
  | 'authentication_error';

export interface StripeErrorBody {
  type: StripeErrorType;
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  charge?: string;
  doc_url?: string;
  /** The PaymentIntent or SetupIntent a failed confirmation left (Stripe includes it in the error). */
  payment_intent?: unknown;
  setup_intent?: unknown;
}

export class StripeSandboxError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 404 | 409 | 500,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
    this.name = 'StripeSandboxError';
  }

  toJSON(): { error: StripeErrorBody } {
    return { error: this.body };
  }

  static invalid(message: string, param?: string, code?: string): StripeSandboxError {
    return new StripeSandboxError(400, { type: 'invalid_request_error', message, param, code });
  }

  /** Stripe's answer to a parameter the endpoint does not have. */
  static unknownParam(param: string): StripeSandboxError {
    return new StripeSandboxError(400, {
      type: 'invalid_request_error',
      code: 'parameter_unknown',
      param,
      message: `Received unknown parameter: ${param}`,
      doc_url: 'https://stripe.com/docs/error-codes/parameter-unknown',
    });
  }

  static missingParam(param: string): StripeSandboxError {
    return StripeSandboxError.invalid(`Missing required param: ${param}.`, param, 'parameter_missing');
  }

  /** The message Stripe gives for an unknown id: "No such customer: 'cus_x'". */
  static noSuch(resource: string, id: string, param = 'id'): StripeSandboxError {
    return new StripeSandboxError(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${resource}: '${id}'`,
      param,
      doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
    });
  }

  static cardDeclined(chargeId?: string): StripeSandboxError {
    return new StripeSandboxError(402, {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
      charge: chargeId,
      doc_url: 'https://stripe.com/docs/error-codes/card-declined',
    });
  }

  /** `invoices.pay` when the card asks for 3-D Secure: the customer must confirm the PaymentIntent. */
  static invoiceRequiresAction(intent: unknown): StripeSandboxError {
    return new StripeSandboxError(402, {
      type: 'card_error',
      code: 'invoice_payment_intent_requires_action',
      message: 'This payment requires additional user action before it can be completed successfully.',
      payment_intent: intent,
    });
  }

  static noPaymentSource(): StripeSandboxError {
    return StripeSandboxError.invalid(
      'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
      undefined,
      'resource_missing',
    );
  }

  static unauthenticated(): StripeSandboxError {
    return new StripeSandboxError(401, {
      type: 'invalid_request_error',
      message:
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    });
  }

  static invalidKey(): StripeSandboxError {
    return new StripeSandboxError(401, {
      type: 'invalid_request_error',
      code: 'api_key_invalid',
      message: 'Invalid API Key provided: the sandbox accepts any key that starts with sk_test_.',
    });
  }

  static idempotencyMismatch(key: string): StripeSandboxError {
    return new StripeSandboxError(400, {
      type: 'idempotency_error',
      message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    });
  }

  /** Stripe answers a request whose key another request is still executing with 409; nothing is saved. */
  static idempotencyKeyInUse(key: string): StripeSandboxError {
    return new StripeSandboxError(409, {
      type: 'invalid_request_error',
      code: 'idempotency_key_in_use',
      message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
    });
  }

  static unknownRoute(method: string, path: string): StripeSandboxError {
    return new StripeSandboxError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}). The Stripe sandbox does not implement this endpoint.`,
    });
  }
}
