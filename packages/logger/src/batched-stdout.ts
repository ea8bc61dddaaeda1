import { destination, type DestinationStream } from 'pino';

/** A batch is written as soon as it holds this much, whatever the interval. */
const MAX_BATCH_BYTES = 8 * 1024;

/**
 * Log lines on stdout written in batches: at most every `flushMs` (or as soon as 8 KiB wait)
 * instead of one write(2) per line. A busy process (the gateway logs a line per request) then
 * makes one system call per batch. Lines reach stdout at most `flushMs` late; on exit (also after
 * an uncaught exception) what waits is written synchronously, so only a SIGKILL can lose the
 * last `flushMs` of lines. `flushMs` 0: every line is written at once, as pino does by default.
 * `fd`: another file descriptor than stdout (tests).
 */
export function batchedStdout(flushMs: number, fd = 1): DestinationStream {
  if (flushMs <= 0) return destination({ dest: fd, sync: true });
  const sink = destination({ dest: fd, sync: true, minLength: MAX_BATCH_BYTES });
  let waiting = false;
  const flush = () => {
    if (!waiting) return;
    waiting = false;
    sink.flushSync();
  };
  setInterval(flush, flushMs).unref();
  process.on('exit', flush);
  return {
    write(line: string) {
      waiting = true;
      sink.write(line);
    },
  };
}
