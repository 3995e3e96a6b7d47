// Purpose: an onboarding tool that creates user-authentication password profile
// records (section 4.1) for a batch of new users in one realm / user-authentication-info.
//
// Sections followed: 4.1 (POST {base_url}/v2/authentication-realms/<realm_id>/
// user-authentication-info/<user_authentication_info_id>/user-authentication-password-
// profile-info; "a trailing slash is also used in the request example"; body
// {"data": {...}}; Content-Type application/json; success 201), 2.1 (type sent in the
// underscore form "user_authentication_password_profile_info" - "Treat the underscore form
// as the value on the wire"; password_profile_id, username, password required; password
// minimum 8 characters), 5 (Authorization: Bearer), 9 (/v2 prefix).
//
// Choices where the document is silent:
// - Usernames are made distinct per run by a suffix from options.now() (base 36), so two
//   runs against one realm do not reuse names (the document says nothing on uniqueness).
// - Requests: four plain creates; one on the path with its trailing slash; one with
//   `Content-Type: application/json; charset=utf-8`; one whose password is the
//   multi-byte "pässwörd" - exactly 8 characters (code points, NFC), 10 UTF-8 bytes.
//   Every password is checked locally to have at least 8 characters counted as code
//   points (Array.from), which is how the client reads "characters".
// - HTTP stack: fetch (options.fetch or global), JSON.stringify bodies (UTF-8).
// - The response is checked for a data.id and a links.self; the self link is kept as
//   given (it has no /v2, section 9) and never used as a request target.

const TYPE = 'user_authentication_password_profile_info';

/** @param {{baseUrl: string, token: string, ids: {realm_id: string, user_authentication_info_id: string, password_profile_id: string}, now?: () => number, fetch?: typeof fetch}} options */
export async function run(options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date().getTime());
  const base = options.baseUrl.replace(/\/+$/, '');
  const { realm_id, user_authentication_info_id, password_profile_id } = options.ids;
  const path =
    `/v2/authentication-realms/${encodeURIComponent(realm_id)}` + `/user-authentication-info/${encodeURIComponent(user_authentication_info_id)}` + `/user-authentication-password-profile-info`;
  const tag = Math.trunc(now()).toString(36);

  const plan = [
    { username: `ada.lovelace.${tag}`, password: 'correct-horse-battery' },
    { username: `alan.turing.${tag}`, password: 'enigma-1912' },
    { username: `grace.hopper.${tag}`, password: 'COBOL-1959!' },
    { username: `edsger.dijkstra.${tag}`, password: 'goto-considered' },
    { username: `barbara.liskov.${tag}`, password: 'substitution', trailingSlash: true },
    { username: `ken.thompson.${tag}`, password: 'unix-v1-1971', contentType: 'application/json; charset=utf-8' },
    { username: `jürgen.müller.${tag}`, password: 'pässwörd'.normalize('NFC') },
  ];

  const statuses = [];
  const created = [];
  const problems = [];
  for (const item of plan) {
    if (Array.from(item.password).length < 8) throw new Error(`password for ${item.username} is shorter than 8 characters`);
    const res = await fetchImpl(`${base}${path}${item.trailingSlash ? '/' : ''}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${options.token}`,
        'Content-Type': item.contentType ?? 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify({
        data: { type: TYPE, password_profile_id, username: item.username, password: item.password },
      }),
    });
    statuses.push(res.status);
    const body = await res.json().catch(() => null);
    if (res.status === 201 && body?.data?.id) {
      created.push(body.data.id);
      if (body.data.username !== item.username) problems.push(`username echo differs for ${item.username}`);
      if ('password' in body.data) problems.push('password echoed back');
      if (typeof body.links?.self !== 'string') problems.push(`no links.self for ${item.username}`);
    }
  }
  return { statuses, created, problems };
}
