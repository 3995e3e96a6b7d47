/**
 * Passwords are kept only as salted hashes. The salt comes from the seeded random source, so snapshots
 * stay deterministic; the cost is low on purpose (a simulator, not a vault).
 */
import { pbkdf2Sync, timingSafeEqual } from 'node:crypto';
import type { Random } from './random.js';

const ITERATIONS = 100;

export function hashPassword(password: string, random: Random): string {
  const salt = random.hex(16);
  const hash = pbkdf2Sync(password, salt, ITERATIONS, 32, 'sha256').toString('hex');
  return `pbkdf2-sha256$${ITERATIONS}$${salt}$${hash}`;
}

export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, iterations, salt, hash] = stored.split('$');
  if (scheme !== 'pbkdf2-sha256' || iterations === undefined || salt === undefined || hash === undefined) return false;
  const candidate = pbkdf2Sync(password, salt, Number(iterations), 32, 'sha256');
  const expected = Buffer.from(hash, 'hex');
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}
