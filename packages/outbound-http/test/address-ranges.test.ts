import { describe, expect, it } from 'vitest';
import { classifyAddress, refuseAddress, urlOrigin } from '../src/index.js';

describe('classifyAddress', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf:ffff::1', 'link_local'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fec0::1', 'private'],
    ['64:ff9b:1::a00:1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['169.253.255.255', 'public'],
    ['2606:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
  ])('%s is %s', (address, range) => {
    expect(classifyAddress(address)?.range).toBe(range);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback', '127.0.0.1'],
    ['::ffff:7f00:1', 'loopback', '127.0.0.1'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback', '127.0.0.1'],
    ['::ffff:169.254.169.254', 'metadata', '169.254.169.254'],
    ['::ffff:a9fe:a9fe', 'metadata', '169.254.169.254'],
    ['::ffff:0:a9fe:a9fe', 'metadata', '169.254.169.254'],
    ['::127.0.0.1', 'loopback', '127.0.0.1'],
    ['::a00:1', 'private', '10.0.0.1'],
    ['64:ff9b::7f00:1', 'loopback', '127.0.0.1'],
    ['64:ff9b::192.168.0.1', 'private', '192.168.0.1'],
    ['64:ff9b::a9fe:a9fe', 'metadata', '169.254.169.254'],
    ['64:ff9b::808:808', 'public', '8.8.8.8'],
    ['2002:7f00:1::1', 'loopback', '127.0.0.1'],
    ['2002:a9fe:a9fe::', 'metadata', '169.254.169.254'],
    ['2002:808:808::1', 'public', '8.8.8.8'],
    ['::ffff:8.8.8.8', 'public', '8.8.8.8'],
  ])('%s reaches %s (%s)', (address, range, embedded) => {
    expect(classifyAddress(address)).toEqual({ range, embeddedIPv4: embedded });
  });

  it('classifies what numeric URL hosts really reach (via the URL parser)', () => {
    const host = (url: string) => new URL(urlOrigin(url) ?? 'http://invalid').hostname;
    expect(classifyAddress(host('http://2130706433/'))?.range).toBe('loopback');
    expect(classifyAddress(host('http://0x7f.1/'))?.range).toBe('loopback');
    expect(classifyAddress(host('http://0xa9.0xfe.0xa9.0xfe/'))?.range).toBe('metadata');
    expect(classifyAddress(host('http://2852039166/'))?.range).toBe('metadata');
    expect(classifyAddress(host('http://0/'))?.range).toBe('unspecified');
  });

  it('returns null for anything that is not an IP', () => {
    expect(classifyAddress('localhost')).toBeNull();
    expect(classifyAddress('127.0.0.1.nip.io')).toBeNull();
    expect(classifyAddress('1.2.3')).toBeNull();
  });
});

describe('refuseAddress (the address rule)', () => {
  it('always refuses metadata and link-local, even for an allowlisted origin', () => {
    expect(refuseAddress('169.254.169.254', true)?.reason).toBe('metadata_address');
    expect(refuseAddress('::ffff:169.254.169.254', true)?.reason).toBe('metadata_address');
    expect(refuseAddress('fd00:ec2::254', true)?.reason).toBe('metadata_address');
    expect(refuseAddress('169.254.10.10', true)).toMatchObject({
      reason: 'blocked_address',
      range: 'link_local',
    });
    expect(refuseAddress('fe80::1', true)).toMatchObject({ reason: 'blocked_address', range: 'link_local' });
  });

  it('refuses private ranges unless the origin is allowlisted', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '100.64.0.1',
      'fd00::1',
      '::',
      '0.0.0.0',
      '::ffff:7f00:1',
    ]) {
      expect(refuseAddress(address, false)?.reason, address).toBe('blocked_address');
      expect(refuseAddress(address, true), address).toBeNull();
    }
  });

  it('lets public addresses through and refuses non-IP answers', () => {
    expect(refuseAddress('93.184.215.14', false)).toBeNull();
    expect(refuseAddress('2606:2800:21f:cb07:6820:80da:af6b:8b2c', false)).toBeNull();
    expect(refuseAddress('not-an-ip', true)?.reason).toBe('blocked_address');
  });
});
