// Trap: a client written from the field description of `type`, which sends the
// hyphenated form "user-authentication-password-profile-info".
//
// Breaks (section 2.1, type row): "Treat the underscore form as the value on the wire."
//
// Everything else follows 4.1. HTTP stack: fetch.

/** @param {{baseUrl: string, token: string, ids: {realm_id: string, user_authentication_info_id: string, password_profile_id: string}, now?: () => number, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date().getTime());
  const { realm_id, user_authentication_info_id, password_profile_id } = options.ids;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/v2/authentication-realms/${realm_id}/user-authentication-info/${user_authentication_info_id}/user-authentication-password-profile-info`;
  const res = await fetchImpl(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${options.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      data: {
        type: 'user-authentication-password-profile-info',
        password_profile_id,
        username: `hyphen.${Math.trunc(now()).toString(36)}`,
        password: 'long-enough-password',
      },
    }),
  });
  await res.arrayBuffer();
  return { statuses: [res.status] };
}
