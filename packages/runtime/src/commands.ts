import { ConfigError } from '@platform/config';
import { createLogger, type Logger } from '@platform/logger';
import { kafkaTopicsCommand } from './kafka-topics-command.js';

/**
 * A one-shot task the service's image runs instead of serving: `node dist/main.js <command>` (a
 * Kubernetes Job or an init step runs the same image with the command as its argument). It
 * resolves when done; a rejection exits 1 with the cause logged.
 */
export type ServiceCommand = (context: { name: string; logger: Logger; args: string[] }) => Promise<void>;

/** Commands every service's image understands (besides `serve`, the default). */
export const BUILTIN_COMMANDS: Record<string, ServiceCommand> = {
  /** Provisions the Kafka topic catalog (kafka-topics-command.ts). */
  'kafka-topics': kafkaTopicsCommand,
};

/** Exit code for a command-line usage error (EX_USAGE). */
const EXIT_USAGE = 64;

/**
 * Runs `command` from `commands` and exits with its outcome; an unknown command exits 64 with the
 * list of known ones, so a typo in a Job's `args` fails loudly instead of starting a server.
 */
export async function runCommandAndExit(
  name: string,
  command: string,
  args: string[],
  commands: Record<string, ServiceCommand>,
): Promise<never> {
  const run = commands[command];
  if (!run) {
    const known = ['serve', ...Object.keys(commands)].join(', ');
    process.stderr.write(`${name}: unknown command "${command}" (known: ${known})\n`);
    process.exit(EXIT_USAGE);
  }
  const logger = createLogger(name, process.env.LOG_LEVEL ?? 'info').child({ command });
  try {
    await run({ name, logger, args });
    logger.info('command finished');
    process.exit(0);
  } catch (error) {
    if (error instanceof ConfigError) {
      // Like serving: a bad environment exits 78 with the variables named, not a stack trace.
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    logger.fatal({ err: error }, 'command failed');
    process.exit(1);
  }
}
