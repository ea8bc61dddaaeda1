import { describe, expect, it } from 'vitest';
import { SendFailure } from '../src/domain/delivery/delivery-ports.js';
import { smtpConnectTarget } from '../src/adapters/channels/smtp-destination.js';

const dns = (answers: Record<string, string[]>) => async (host: string) =>
  (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

const reason = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SendFailure);
  return (err as SendFailure).params.reason;
};

describe('SMTP host address rule (same as HTTP destinations)', () => {
  const resolve = dns({
    'mail.example.com': ['8.8.8.10'],
    'relay.internal': ['10.0.0.25'],
    'rebinding.example': ['8.8.4.4', '127.0.0.1'],
  });

  it('connects to the checked public address, naming the host for TLS', async () => {
    await expect(smtpConnectTarget('Mail.Example.com.', { resolve })).resolves.toEqual({
      address: '8.8.8.10',
      servername: 'mail.example.com',
    });
  });

  it('refuses private, loopback and mixed answers unless allowed; metadata and link-local always', async () => {
    expect(await reason(smtpConnectTarget('relay.internal', { resolve }))).toBe('private address');
    expect(await reason(smtpConnectTarget('127.0.0.1', { resolve }))).toBe('private address');
    expect(await reason(smtpConnectTarget('rebinding.example', { resolve }))).toBe('private address');
    expect(await reason(smtpConnectTarget('[::ffff:10.1.2.3]', { resolve }))).toBe('private address');
    for (const host of ['169.254.169.254', 'metadata.google.internal', '[fd00:ec2::254]']) {
      expect(await reason(smtpConnectTarget(host, { resolve, allowPrivateNetworks: true }))).toBe(
        'metadata address',
      );
    }
    expect(await reason(smtpConnectTarget('169.254.1.1', { resolve, allowPrivateNetworks: true }))).toBe(
      'private address',
    );
  });

  it('lets a registered private relay (SMTP_PRIVATE_HOSTS) or DELIVERY_ALLOW_PRIVATE_NETWORKS through', async () => {
    await expect(
      smtpConnectTarget('relay.internal', { resolve, privateHosts: ['RELAY.internal'] }),
    ).resolves.toMatchObject({ address: '10.0.0.25' });
    await expect(smtpConnectTarget('127.0.0.1', { resolve, allowPrivateNetworks: true })).resolves.toEqual({
      address: '127.0.0.1',
    });
  });
});
