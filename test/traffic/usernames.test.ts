/**
 * Whether usernames may repeat is not shown (§7): a client re-sending a username, refused with 422 by a
 * server that keeps them unique, is no server failure in traffic, while a fresh username refused still is.
 */
import { describe, expect, it } from 'vitest';
import { toExchange } from '../../src/port.js';
import type { TrafficEntry } from '../../src/traffic/entry.js';
import { createTrafficJudge } from '../../src/traffic/judge/judge.js';

const PATH = '/v2/authentication-realms/r1/user-authentication-info/u1/user-authentication-password-profile-info';
let n = 0;
function create(username: string, status: number): TrafficEntry {
  const body = JSON.stringify({ data: { type: 'user_authentication_password_profile_info', password_profile_id: 'pp1', username, password: 'correct-horse' } });
  const answer =
    status === 201
      ? { data: { id: `00000000-0000-4000-8000-00000000000${++n}`, type: 'user_authentication_password_profile_info', username, password_profile_id: 'pp1' } }
      : { errors: [{ status: String(status), title: 'Unprocessable Entity', detail: 'username taken' }] };
  return {
    exchange: toExchange(
      { method: 'POST', url: PATH, headers: { authorization: 'Bearer a', 'content-type': 'application/json' }, body },
      { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) },
    ),
    origin: 'https://api.test',
    source: `entry ${n}`,
  };
}

const failures201 = (entries: readonly TrafficEntry[]) => {
  const judge = createTrafficJudge({ complete: true });
  for (const e of entries) judge.observe(e);
  return judge.finish().findings.filter((f) => f.ruleId === 'create.status.201' && f.status === 'fail');
};

describe('usernames in traffic', () => {
  it('a repeated username refused with 422 is not judged as a refused valid create', () => {
    expect(failures201([create('kit@example.com', 201), create('kit@example.com', 422)])).toEqual([]);
  });
  it('a fresh username refused with 422 still fails create.status.201', () => {
    expect(failures201([create('kit@example.com', 201), create('other@example.com', 422)])).toHaveLength(1);
  });
});
