/**
 * A target whose every answer also feeds a fingerprint of the deployment's readings (rules/fingerprint.ts):
 * `run` and `props` report the reading of each point the document leaves open that their requests reached.
 */
import { FingerprintCollector, type Fingerprint } from '../rules/fingerprint.js';
import { toExchange, type Target } from '../port.js';

export function fingerprinted(target: Target): { readonly target: Target; result(): Fingerprint } {
  const collector = new FingerprintCollector({ origin: target.baseUrl, wire: target.kind === 'http' });
  const wrapped: Target = {
    kind: target.kind,
    get baseUrl() {
      return target.baseUrl;
    },
    vars: target.vars,
    async send(request) {
      const response = await target.send(request);
      collector.observe(toExchange(request, response));
      return response;
    },
    close: () => target.close(),
  };
  return { target: wrapped, result: () => collector.result() };
}
