// Purpose: a provisioning script (no fetch, plain node:http) that creates password
// profile records for users whose passwords are not ASCII: CJK and emoji passphrases,
// each at least 8 characters, one of them exactly 8.
//
// Sections followed: 4.1 (method POST, the /v2 path shape without trailing slash,
// Authorization and Content-Type: application/json headers, body {"data": {...}}, 201 on
// success), 2.1 (type "user_authentication_password_profile_info", the underscore form
// the document says to put on the wire; password_profile_id, username and password
// required; password minimum 8 characters), 5, 9.
//
// Choices where the document is silent:
// - "Characters" is read as Unicode code points; every password here has at least 8 of
//   them and is also at least 8 UTF-16 units and 8 UTF-8 bytes, so it passes under any
//   of those readings: "密码安全测试长度" (8 CJK code points, 24 bytes), eight emoji
//   without variation selectors (8 code points, 16 UTF-16 units, 32 bytes), and
//   "Пароль-42" (9 code points).
// - Bodies are serialised with JSON.stringify and sent as UTF-8 with an explicit
//   Content-Length in bytes (Buffer.byteLength), not string length.
// - Header names all lower case (`authorization`, `content-type`, `content-length`).
// - Usernames distinct per run (suffix from options.now()).

import http from 'node:http';
import https from 'node:https';

/** @param {{baseUrl: string, token: string, ids: {realm_id: string, user_authentication_info_id: string, password_profile_id: string}, now?: () => number}} options */
export async function run(options) {
  const now = options.now ?? (() => new Date().getTime());
  const base = new URL(options.baseUrl);
  const lib = base.protocol === 'https:' ? https : http;
  const prefix = base.pathname.replace(/\/+$/, '');
  const { realm_id, user_authentication_info_id, password_profile_id } = options.ids;
  const path = `${prefix}/v2/authentication-realms/${realm_id}/user-authentication-info/${user_authentication_info_id}/user-authentication-password-profile-info`;
  const tag = Math.trunc(now()).toString(36);

  const users = [
    { username: `li.wei.${tag}`, password: '密码安全测试长度' },
    { username: `emoji.fan.${tag}`, password: '😀😃😄😁😆😅😂🤣' },
    { username: `ivan.petrov.${tag}`, password: 'Пароль-42' },
  ];

  function post(payload) {
    const body = Buffer.from(JSON.stringify(payload), 'utf8');
    return new Promise((resolve, reject) => {
      const req = lib.request(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
          path,
          method: 'POST',
          headers: {
            authorization: `Bearer ${options.token}`,
            'content-type': 'application/json',
            'content-length': body.byteLength,
            accept: 'application/json',
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            let json = null;
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              json = null;
            }
            resolve({ status: res.statusCode, json });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  const statuses = [];
  const created = [];
  for (const u of users) {
    const chars = [...u.password].length;
    if (chars < 8) throw new Error(`${u.username}: password has ${chars} characters, the minimum is 8`);
    const { status, json } = await post({
      data: {
        type: 'user_authentication_password_profile_info',
        password_profile_id,
        username: u.username,
        password: u.password,
      },
    });
    statuses.push(status);
    if (status === 201 && json?.data?.id) created.push(json.data.id);
  }
  return { statuses, created };
}
