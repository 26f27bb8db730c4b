/** STEPWISE_SMTP_URL and STEPWISE_SMTP_FROM (docs/configuration.md): an smtp(s) URL or none. */
import { describe, expect, it } from 'vitest';
import { ConfigError, smtpConfig } from '../../src/config.js';

describe('smtpConfig', () => {
  it('is off without a URL and keeps a given one and From', () => {
    expect(smtpConfig({})).toEqual({ smtpUrl: undefined, smtpFrom: 'Stepwise <stepwise@localhost>' });
    const env = { STEPWISE_SMTP_URL: 'smtps://u:p@mail.example.com:465', STEPWISE_SMTP_FROM: 'Lab <lab@example.com>' };
    expect(smtpConfig(env)).toEqual({ smtpUrl: 'smtps://u:p@mail.example.com:465', smtpFrom: 'Lab <lab@example.com>' });
  });

  it.each(['mail.example.com', 'http://mail.example.com', 'smtp://', 'not a url'])('refuses %s', (url) => {
    expect(() => smtpConfig({ STEPWISE_SMTP_URL: url })).toThrow(ConfigError);
  });
});
