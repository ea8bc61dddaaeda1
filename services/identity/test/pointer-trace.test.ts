import { describe, expect, it } from 'vitest';
import { scriptedTraceReason, type PointerSample } from '../src/domain/captcha/pointer-trace.js';

const at = (x: number, y: number, t: number): PointerSample => ({ x, y, t, event: 'move' });
const human = [at(10, 40, 0), at(28, 47, 17), at(47, 51, 40), at(66, 50, 55), at(80, 44, 90)];
/** The target option's area; `human` ends inside it. */
const box = { x0: 70, x1: 150, y0: 0, y1: 96 };

/** The trace rule's reasons, one per check (the HTTP tests only see 5303). */
describe('captcha trace rule', () => {
  it.each([
    ['human path', 900, human, 1_000, null],
    ['no pointer, however slow', 5_000, [], 6_000, 'no_pointer_trace'],
    ['too fast', 299, human, 1_000, 'too_fast'],
    ['too slow', 300_001, human, 400_000, 'too_slow'],
    ['claims more than the server saw', 5_000, human, 3_000, 'elapsed_exceeds_challenge_age'],
    ['server saw under 300 ms', 300, human, 200, 'too_fast'],
    ['no pointer, quick', 799, [], 1_000, 'no_pointer_trace'],
    ['ends left of the option', 900, human.slice(0, 4), 1_000, 'trace_misses_option'],
    ['ends right of the option', 900, [...human, at(151, 44, 120)], 1_000, 'trace_misses_option'],
    ['ends below the image', 900, [...human, at(100, 97, 120)], 1_000, 'trace_misses_option'],
    ['ends on the option edge', 900, [...human, at(150, 96, 120)], 1_000, null],
    ['two samples', 900, human.slice(0, 2), 1_000, 'too_few_points'],
    ['time backwards', 900, [at(1, 1, 5), at(5, 9, 3), at(9, 4, 8)], 1_000, 'time_goes_backwards'],
    ['zero span', 900, [at(1, 1, 5), at(5, 9, 5), at(9, 4, 5)], 1_000, 'no_time_passes'],
    [
      'span beyond elapsed',
      400,
      [at(1, 1, 0), at(5, 9, 900), at(9, 4, 1_500)],
      1_000,
      'trace_longer_than_elapsed',
    ],
    [
      'straight line',
      900,
      [at(0, 0, 0), at(10, 10, 17), at(30, 30, 40), at(31, 31, 52)],
      1_000,
      'straight_line',
    ],
    ['no movement', 900, [at(5, 5, 0), at(5, 5, 16), at(5, 5, 33)], 1_000, 'straight_line'],
    [
      'constant velocity on a curve',
      900,
      Array.from({ length: 8 }, (_, i) => at(50 * Math.cos(i / 4), 50 * Math.sin(i / 4), i * 16)),
      1_000,
      'constant_velocity',
    ],
  ] as const)('%s', (_name, elapsed, pointer, age, reason) => {
    expect(scriptedTraceReason(elapsed, pointer, age, box)).toBe(reason);
  });
});
