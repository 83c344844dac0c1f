import { describe, expect, it } from 'vitest';
import { credentialsFor } from './docker-config.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('pull secret credentials', () => {
  it('prefers an entry for the repository over one for the registry', () => {
    const config = JSON.stringify({
      auths: {
        'r.example.com': { username: 'reg', password: 'p1' },
        'r.example.com/charts/ext': { auth: b64('repo:p:2') },
      },
    });
    expect(credentialsFor(config, 'r.example.com', 'charts/ext')).toEqual({ username: 'repo', password: 'p:2' });
    expect(credentialsFor(config, 'r.example.com', 'charts/other')).toEqual({ username: 'reg', password: 'p1' });
  });

  it('matches keys written as URLs by their host, and Docker Hub by its legacy key', () => {
    const config = JSON.stringify({
      auths: {
        'https://r.example.com/v2/': { auth: b64('u:p') },
        'https://index.docker.io/v1/': { identitytoken: 'refresh' },
      },
    });
    expect(credentialsFor(config, 'r.example.com', 'x')).toEqual({ username: 'u', password: 'p' });
    expect(credentialsFor(config, 'index.docker.io', 'library/x')).toEqual({ identityToken: 'refresh' });
  });

  it('is anonymous for other registries and refuses malformed configs', () => {
    const config = JSON.stringify({ auths: { 'r.example.com': { registrytoken: 't' } } });
    expect(credentialsFor(config, 'other.example.com', 'x')).toBeUndefined();
    expect(credentialsFor(config, 'r.example.com', 'x')).toEqual({ registryToken: 't' });
    expect(() => credentialsFor('{', 'r', 'x')).toThrow(/not valid JSON/);
    expect(() => credentialsFor('{"credsStore":"x"}', 'r', 'x')).toThrow(/no "auths"/);
    expect(() => credentialsFor(JSON.stringify({ auths: { r: { auth: b64('nocolon') } } }), 'r', 'x')).toThrow(
      /user:password/,
    );
  });
});
