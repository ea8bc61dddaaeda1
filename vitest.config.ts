import { defineConfig } from 'vitest/config';

// Two projects: `unit` needs no servers; `integration` (*.int.test.ts) expects the local stack
// (deploy/local/stack.sh up) and, for end-to-end tests, the seven services.
export default defineConfig({
  test: {
    // isolated-vm (packages/sandbox) needs Node started with --no-node-snapshot; a project may not
    // set execArgv itself, so every test process gets it (it changes nothing else).
    poolOptions: { forks: { execArgv: ['--no-node-snapshot'] } },
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/test/**/*.test.ts',
            'services/*/test/**/*.test.ts',
            'deploy/test/**/*.test.ts',
            'scripts/test/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'packages/*/test/**/*.int.test.ts',
            'services/*/test/**/*.int.test.ts',
            'deploy/test/**/*.int.test.ts',
          ],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
