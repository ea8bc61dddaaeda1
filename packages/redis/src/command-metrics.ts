import type { Command, Redis } from 'ioredis';
import { histogram } from '@platform/telemetry';

const commandDuration = histogram({
  name: 'redis_command_duration_seconds',
  help: 'Redis commands from send to reply (offline-queue wait included), by command name',
  labelNames: ['command'] as const,
});

/**
 * Command names seen so far, each with its bound histogram child. The names come from the code
 * (ioredis' command methods, `evalsha`/`eval` for scripts), a closed set; the cap only guards
 * against a caller passing arbitrary names to `client.call()`.
 */
const MAX_COMMAND_NAMES = 200;
const children = new Map<string, { observe(seconds: number): void }>();

function childFor(name: string): { observe(seconds: number): void } {
  let child = children.get(name);
  if (!child) {
    const label = children.size < MAX_COMMAND_NAMES ? name.toLowerCase() : 'other';
    child = commandDuration.labels(label);
    children.set(name, child);
  }
  return child;
}

const TIMED = Symbol('redis-command-timed');
type TimedCommand = Command & { [TIMED]?: true };

/**
 * Times every command `client` sends: its resolve/reject are wrapped once, at the first send (a
 * command can pass through sendCommand again after a reconnect). No promise is added per command:
 * the gateway checks a session in Redis on every request.
 */
export function timeCommands(client: Redis): void {
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command: TimedCommand, stream) => {
    if (!command[TIMED]) {
      command[TIMED] = true;
      const startedAt = performance.now();
      const child = childFor(command.name);
      const { resolve, reject } = command;
      command.resolve = (value) => {
        child.observe((performance.now() - startedAt) / 1000);
        resolve(value);
      };
      command.reject = (error) => {
        child.observe((performance.now() - startedAt) / 1000);
        reject(error);
      };
    }
    return send(command, stream);
  };
}
