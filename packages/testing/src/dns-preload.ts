// `node --import <this file>`: the test resolver (test-dns.ts) in a child process, from
// TEST_DNS_SERVER (`127.0.0.1:<port>`) and TEST_DNS_DOMAIN. Started by tests only.
import { useTestDns } from './test-dns.js';

const server = process.env.TEST_DNS_SERVER;
const domain = process.env.TEST_DNS_DOMAIN;
if (server && domain) useTestDns(server, domain);
