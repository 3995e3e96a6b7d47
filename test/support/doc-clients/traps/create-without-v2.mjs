// Trap: a create whose URL was modelled on the self link of an earlier create response
// ({base_url}/authentication-realms/...), which carries no /v2 segment.
//
// Breaks (section 9): "Resource paths are prefixed with /v2." (section 1: "Resources sit
// under the path prefix /v2.")
//
// Everything else follows 4.1. HTTP stack: fetch.

/** @param {{baseUrl: string, token: string, ids: {realm_id: string, user_authentication_info_id: string, password_profile_id: string}, now?: () => number, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date().getTime());
  const { realm_id, user_authentication_info_id, password_profile_id } = options.ids;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/authentication-realms/${realm_id}/user-authentication-info/${user_authentication_info_id}/user-authentication-password-profile-info`;
  const res = await fetchImpl(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${options.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      data: {
        type: 'user_authentication_password_profile_info',
        password_profile_id,
        username: `nov2.${Math.trunc(now()).toString(36)}`,
        password: 'long-enough-password',
      },
    }),
  });
  await res.arrayBuffer();
  return { statuses: [res.status] };
}
