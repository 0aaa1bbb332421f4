import { array, type XmlNode, xmlResponse } from './xml.js';

/** One validation error, placed under `path` (e.g. ['subscription', 'discounts']) as Braintree nests them. */
export interface FieldError {
  path: string[];
  attribute: string;
  code: string;
  message: string;
}

export const fieldError = (path: string[], attribute: string, code: string, message: string): FieldError => ({
  path,
  attribute,
  code,
  message,
});

interface Tree {
  errors: FieldError[];
  children: Map<string, Tree>;
}

function toNode(tree: Tree): XmlNode {
  const node: { [key: string]: XmlNode } = {
    errors: array(
      'error',
      tree.errors.map((e) => ({
        code: e.code,
        attribute: { $: { type: 'symbol' }, _: e.attribute },
        message: e.message,
      })),
    ),
  };
  for (const [key, child] of tree.children) node[key] = toNode(child);
  return node;
}

/**
 * An unsuccessful result: HTTP 422 with `<api-error-response>`, which the SDK turns into
 * `{ success: false, errors, message, transaction? }` (braintree/lib/braintree/error_response.js).
 */
export function errorResult(
  message: string,
  errors: FieldError[],
  extra: { transaction?: XmlNode; verification?: XmlNode } = {},
): Response {
  const root: Tree = { errors: [], children: new Map() };
  for (const error of errors) {
    let tree = root;
    for (const segment of error.path) {
      let child = tree.children.get(segment);
      if (!child) {
        child = { errors: [], children: new Map() };
        tree.children.set(segment, child);
      }
      tree = child;
    }
    tree.errors.push(error);
  }
  const body: { [key: string]: XmlNode } = { errors: toNode(root), message };
  if (extra.transaction) body.transaction = extra.transaction;
  if (extra.verification) body.verification = extra.verification;
  return xmlResponse('api-error-response', body, 422);
}

/** A validation failure: the message is every error message joined, as the gateway does. */
export function validationResult(errors: FieldError[]): Response {
  return errorResult(errors.map((e) => e.message).join('\n'), errors);
}

export function notFound(): Response {
  return new Response('', { status: 404 });
}
