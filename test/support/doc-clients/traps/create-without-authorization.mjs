// Trap: a create sent without the Authorization header (the developer tested against a
// local mock that needed none).
//
// Breaks (section 5): "The header is required on the create operation." (4.1 headers
// table: "Authorization | Required | string | Bearer token giving access to the API.")
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
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      data: {
        type: 'user_authentication_password_profile_info',
        password_profile_id,
        username: `anon.${Math.trunc(now()).toString(36)}`,
        password: 'long-enough-password',
      },
    }),
  });
  await res.arrayBuffer();
  return { statuses: [res.status] };
}
