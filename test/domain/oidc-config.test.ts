/** STEPWISE_OIDC_* (docs/api.md §16): all three or none, and a default role below owner. */
import { describe, expect, it } from 'vitest';
import { ConfigError, oidcConfig } from '../../src/config.js';

const ALL = {
  STEPWISE_OIDC_ISSUER: 'https://id.example.com',
  STEPWISE_OIDC_CLIENT_ID: 'stepwise',
  STEPWISE_OIDC_CLIENT_SECRET: 'secret',
};

describe('oidcConfig', () => {
  it('is off without the variables and on with all three, members by default', () => {
    expect(oidcConfig({})).toBeUndefined();
    expect(oidcConfig(ALL)).toEqual({
      issuer: 'https://id.example.com',
      clientId: 'stepwise',
      clientSecret: 'secret',
      defaultRole: 'member',
    });
    expect(oidcConfig({ ...ALL, STEPWISE_OIDC_DEFAULT_ROLE: 'viewer' })?.defaultRole).toBe('viewer');
  });

  it.each([
    { STEPWISE_OIDC_ISSUER: ALL.STEPWISE_OIDC_ISSUER },
    { ...ALL, STEPWISE_OIDC_CLIENT_SECRET: '' },
    { ...ALL, STEPWISE_OIDC_ISSUER: 'not a url' },
    { ...ALL, STEPWISE_OIDC_DEFAULT_ROLE: 'owner' },
    { ...ALL, STEPWISE_OIDC_DEFAULT_ROLE: 'boss' },
  ])('refuses %o', (env) => {
    expect(() => oidcConfig(env)).toThrow(ConfigError);
  });
});
