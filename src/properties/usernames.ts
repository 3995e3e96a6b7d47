/**
 * Usernames never sent twice in one run, shrinking included: whether usernames may repeat is not shown
 * (§2.1, §3), and a server that refuses a duplicate (409 or 422) conforms. Against the simulator (no
 * nonce) a username is sent as drawn the first time and a repeat gets a tag (`~1`, or `+1` before an
 * e-mail's @). Against a URL records outlive the run, so every username carries the run's nonce.
 */
export interface Usernames {
  /** `base`, or `base` tagged so that it was not sent before in this run; never one holding `avoid` (a password: an echo of it would read as a leak). */
  fresh(base: string, avoid?: string): string;
}

/** Usernames sent this run are remembered up to this many; past it every username is tagged. */
const MAX_REMEMBERED = 100_000;

export function usernames(nonce: string): Usernames {
  const sent = new Set<string>();
  let n = 0;
  const tagged = (base: string, tag: string): string => {
    const at = base.lastIndexOf('@');
    return at > 0 ? `${base.slice(0, at)}+${tag}${base.slice(at)}` : `${base}~${tag}`;
  };
  return {
    fresh(base, avoid) {
      let name = base;
      if (nonce !== '' || sent.has(name) || sent.size >= MAX_REMEMBERED) {
        do name = tagged(base, `${nonce}${(++n).toString(36)}`);
        while (sent.has(name) || (avoid !== undefined && avoid !== '' && name.includes(avoid)));
      }
      if (sent.size < MAX_REMEMBERED) sent.add(name);
      return name;
    },
  };
}
