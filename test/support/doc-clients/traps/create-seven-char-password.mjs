// Trap: a sign-up form whose password rule was copied from an older system
// (7 characters), so it creates a password profile with a 7-character password.
//
// Breaks (section 2.1, password row): "The password used to authenticate. Minimum 8
// characters." (also section 8: "Minimum password length | 8 characters (create
// operation)").
//
// Everything else follows 4.1: POST on the /v2 path, Bearer token, Content-Type
// application/json, {"data": {...}} with the underscore type. HTTP stack: fetch.

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
        type: 'user_authentication_password_profile_info',
        password_profile_id,
        username: `seven.${Math.trunc(now()).toString(36)}`,
        password: 'abc1234', // 7 characters
      },
    }),
  });
  await res.arrayBuffer();
  return { statuses: [res.status] };
}
