// Per-component NATS credentials. Files are read at every (re)connect, so rotated credentials apply without a restart.
import { readFileSync } from 'node:fs';
import {
  credsAuthenticator,
  nkeyAuthenticator,
  tokenAuthenticator,
  usernamePasswordAuthenticator,
  type Authenticator,
} from '@nats-io/transport-node';

export type Credentials =
  | { user: string; password: string }
  | { token: string }
  /** An nkey seed ("SU…"), inline or in a file. */
  | { nkeySeed: string }
  | { nkeySeedFile: string }
  /** A decentralized-auth .creds file (user JWT and nkey seed). */
  | { credsFile: string };

export function authenticatorFor(credentials: Credentials): Authenticator {
  if ('user' in credentials) return usernamePasswordAuthenticator(credentials.user, credentials.password);
  if ('token' in credentials) return tokenAuthenticator(credentials.token);
  if ('nkeySeed' in credentials) return nkeyAuthenticator(new TextEncoder().encode(credentials.nkeySeed.trim()));
  if ('nkeySeedFile' in credentials) {
    const file = credentials.nkeySeedFile;
    return nkeyAuthenticator(() => new TextEncoder().encode(readFileSync(file, 'utf8').trim()));
  }
  if ('credsFile' in credentials) {
    const file = credentials.credsFile;
    return credsAuthenticator(() => readFileSync(file));
  }
  throw new Error(`unknown NATS credentials: expected user/password, token, nkeySeed, nkeySeedFile or credsFile`);
}

/** What the credentials are, for log lines (never the secret itself). */
export function describeCredentials(credentials: Credentials | undefined): string {
  if (!credentials) return 'none';
  if ('user' in credentials) return `user ${credentials.user}`;
  if ('token' in credentials) return 'token';
  if ('nkeySeedFile' in credentials) return `nkey seed file ${credentials.nkeySeedFile}`;
  if ('nkeySeed' in credentials) return 'nkey seed';
  return `creds file ${credentials.credsFile}`;
}
