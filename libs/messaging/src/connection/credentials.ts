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

/** Credential settings as component configurations write them: at most one kind set. */
export interface CredentialSettings {
  credsFile?: string | undefined;
  nkeySeedFile?: string | undefined;
  token?: string | undefined;
  user?: string | undefined;
  password?: string | undefined;
}

/** The credentials of a component's NATS settings (creds file, nkey seed file, token, user/password), if any. */
export function credentialsOf(c: CredentialSettings | undefined): Credentials | undefined {
  if (!c) return undefined;
  if (c.credsFile) return { credsFile: c.credsFile };
  if (c.nkeySeedFile) return { nkeySeedFile: c.nkeySeedFile };
  if (c.token) return { token: c.token };
  if (c.user) return { user: c.user, password: c.password ?? '' };
  return undefined;
}

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
