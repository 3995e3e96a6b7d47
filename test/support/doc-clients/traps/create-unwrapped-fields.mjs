// Trap: a create that posts the fields at the top level of the JSON body, without the
// enclosing data object.
//
// Breaks (section 4.1): "Request body: a JSON object with one member, data, which holds
// the fields of section 2.1 (type, password_profile_id, username, password)."
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
      type: 'user_authentication_password_profile_info',
      password_profile_id,
      username: `flat.${Math.trunc(now()).toString(36)}`,
      password: 'long-enough-password',
    }),
  });
  await res.arrayBuffer();
  return { statuses: [res.status] };
}
