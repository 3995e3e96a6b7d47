/**
 * The form list records' ids take on the wire (the reading `ids.format`, rules/readings.ts). The store
 * keeps UUIDs; a deployment with other ids is played by an order-keeping map both ways: `prefixed`
 * writes a type prefix and the 32 hex digits (text order is kept), `numeric` the UUID's 128 bits as a
 * decimal number (number order is kept; text order is not, as on a deployment with numeric ids).
 */

export type IdFormat = 'uuid' | 'prefixed' | 'numeric';

export interface IdCodec {
  /** The id as shown. */
  shown(id: string): string;
  /** The stored id of a shown one; undefined when the text is not an id of this form. */
  stored(text: string): string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX32 = /^[0-9a-f]{32}$/;
const DECIMAL = /^(0|[1-9]\d{0,38})$/;
const MAX_128 = (1n << 128n) - 1n;

const dashed = (hex: string): string => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

export const SAME_IDS: IdCodec = { shown: (id) => id, stored: (text) => text };

const ANY_CASE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** UUIDs in upper case (the reading `ids.case=upper`); read back in either case, as RFC 9562 reads them. */
export const UPPER_UUIDS: IdCodec = { shown: (id) => (UUID.test(id) ? id.toUpperCase() : id), stored: (text) => (ANY_CASE_UUID.test(text) ? text.toLowerCase() : text) };

/** The codec of a format for one resource (`prefix`: the resource's, e.g. `acc`). Ids that are not UUIDs are shown as stored. */
export function idCodec(format: IdFormat, prefix: string): IdCodec {
  switch (format) {
    case 'uuid':
      return SAME_IDS;
    case 'prefixed': {
      const head = `${prefix}_`;
      return {
        shown: (id) => (UUID.test(id) ? head + id.replace(/-/g, '') : id),
        stored: (text) => {
          const hex = text.startsWith(head) ? text.slice(head.length) : undefined;
          return hex !== undefined && HEX32.test(hex) ? dashed(hex) : undefined;
        },
      };
    }
    case 'numeric':
      return {
        shown: (id) => (UUID.test(id) ? BigInt(`0x${id.replace(/-/g, '')}`).toString(10) : id),
        stored: (text) => {
          if (!DECIMAL.test(text)) return undefined;
          const n = BigInt(text);
          return n > MAX_128 ? undefined : dashed(n.toString(16).padStart(32, '0'));
        },
      };
  }
}
