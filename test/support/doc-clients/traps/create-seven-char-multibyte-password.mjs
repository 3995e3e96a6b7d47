// Trap: a client that validates the password length in bytes (Buffer.byteLength >= 8)
// instead of characters, and so sends "pässwör": 7 characters, 9 UTF-8 bytes.
//
// Breaks (section 2.1, password row): "The password used to authenticate. Minimum 8
// characters." - characters, not bytes.
//
// Everything else follows 4.1. HTTP stack: node:http with an explicit byte
// Content-Length.

import http from 'node:http';
import https from 'node:https';

/** @param {{baseUrl: string, token: string, ids: {realm_id: string, user_authentication_info_id: string, password_profile_id: string}, now?: () => number}} options */
export async function run(options) {
  const now = options.now ?? (() => new Date().getTime());
  const base = new URL(options.baseUrl);
  const lib = base.protocol === 'https:' ? https : http;
  const { realm_id, user_authentication_info_id, password_profile_id } = options.ids;
  const password = 'pässwör'.normalize('NFC');
  if (Buffer.byteLength(password, 'utf8') < 8) throw new Error('password too short'); // the wrong check
  const body = Buffer.from(
    JSON.stringify({
      data: {
        type: 'user_authentication_password_profile_info',
        password_profile_id,
        username: `bytes.${Math.trunc(now()).toString(36)}`,
        password,
      },
    }),
  );
  const status = await new Promise((resolve, reject) => {
    const req = lib.request(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        method: 'POST',
        path: `${base.pathname.replace(/\/+$/, '')}/v2/authentication-realms/${realm_id}/user-authentication-info/${user_authentication_info_id}/user-authentication-password-profile-info`,
        headers: {
          Authorization: `Bearer ${options.token}`,
          'Content-Type': 'application/json',
          'Content-Length': body.length,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  return { statuses: [status] };
}
