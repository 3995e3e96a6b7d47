// Trap: a create that leaves out password_profile_id, on the theory that the path's
// realm and user-authentication-info already identify everything.
//
// Breaks (section 2.1, create request fields): "| password_profile_id | Required | string
// | The ID of the password profile. |"
//
// Everything else follows 4.1. HTTP stack: fetch with lower-case header names.

/** @param {{baseUrl: string, token: string, ids: {realm_id: string, user_authentication_info_id: string, password_profile_id: string}, now?: () => number, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date().getTime());
  const { realm_id, user_authentication_info_id } = options.ids;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/v2/authentication-realms/${realm_id}/user-authentication-info/${user_authentication_info_id}/user-authentication-password-profile-info`;
  const res = await fetchImpl(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      data: {
        type: 'user_authentication_password_profile_info',
        username: `noprofile.${Math.trunc(now()).toString(36)}`,
        password: 'long-enough-password',
      },
    }),
  });
  await res.arrayBuffer();
  return { statuses: [res.status] };
}
