import xml2js from 'xml2js';

/**
 * A node as xml2js's Builder takes it: `$` holds attributes, `_` text, other keys child elements
 * (an array repeats the element). The SDK reads `type="integer|boolean|array|collection"` and
 * `nil="true"` back into numbers, booleans, arrays and null (braintree/lib/braintree/util.js).
 */
export type XmlNode = string | { [key: string]: XmlNode | XmlNode[] | Record<string, string> };

const builder = new xml2js.Builder({
  renderOpts: { pretty: false },
  xmldec: { version: '1.0', encoding: 'UTF-8' },
});

export function buildXml(root: string, node: XmlNode): string {
  return builder.buildObject({ [root]: node });
}

export const nil = (): XmlNode => ({ $: { nil: 'true' } });

export const text = (value: string | null | undefined): XmlNode => (value == null ? nil() : value);

export const integer = (value: number | null | undefined): XmlNode =>
  value == null ? { $: { nil: 'true', type: 'integer' } } : { $: { type: 'integer' }, _: String(value) };

export const boolean = (value: boolean): XmlNode => ({ $: { type: 'boolean' }, _: String(value) });

export const date = (value: string | null | undefined): XmlNode =>
  value == null ? { $: { nil: 'true', type: 'date' } } : { $: { type: 'date' }, _: value };

export const datetime = (value: string | null | undefined): XmlNode =>
  value == null
    ? { $: { nil: 'true', type: 'datetime' } }
    : { $: { type: 'datetime' }, _: value.replace(/\.\d{3}Z$/, 'Z') };

/** `<tag type="array"><item/>…</tag>`; the element name of the items is `itemTag`. */
export function array(itemTag: string, items: XmlNode[]): XmlNode {
  return items.length === 0 ? { $: { type: 'array' } } : { $: { type: 'array' }, [itemTag]: items };
}

/** A paged search result: `<tag type="collection">` with paging counters and repeated items. */
export function collection(itemTag: string, items: XmlNode[], pageSize: number): XmlNode {
  const node: { [key: string]: XmlNode | XmlNode[] } = {
    $: { type: 'collection' } as unknown as XmlNode,
    'current-page-number': integer(1),
    'page-size': integer(pageSize),
    'total-items': integer(items.length),
  };
  if (items.length > 0) node[itemTag] = items;
  return node;
}

export function xmlResponse(root: string, node: XmlNode, status = 200): Response {
  return new Response(buildXml(root, node), {
    status,
    headers: { 'content-type': 'application/xml; charset=utf-8' },
  });
}
