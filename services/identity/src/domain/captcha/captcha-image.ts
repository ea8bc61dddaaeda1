import { randomInt } from 'node:crypto';
import type { OptionBox } from './pointer-trace.js';

/**
 * Options are short codes from an alphabet without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 8/B),
 * so a human can tell them apart in a noisy image and no locale is favoured.
 */
const ALPHABET = 'ACDEFHJKMNPRTUVWXY34679';
const OPTION_LENGTH = 3;
export const OPTION_COUNT = 4;

const WIDTH = 320;
const HEIGHT = 96;
const COLORS = ['#1f4e79', '#7a1f3d', '#2e6b30', '#6b4a1f', '#4b2e83', '#1f6b6b'];

export interface CaptchaPicture {
  target_text: string;
  /** `data:image/svg+xml;base64,…` showing every option. */
  image: string;
  /** The texts drawn, left to right (display order). */
  options: string[];
  /** The image's coordinate space, which pointer samples are given in. */
  width: number;
  height: number;
}

/** The area of option `index` (its slot, full height: jitter and rotation stay inside it). */
export function optionBox(index: number): OptionBox {
  const slot = WIDTH / OPTION_COUNT;
  return { x0: slot * index, x1: slot * (index + 1), y0: 0, y1: HEIGHT };
}

function randomCode(): string {
  let code = '';
  for (let i = 0; i < OPTION_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

function distinctCodes(count: number): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(randomCode());
  return [...codes];
}

const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)]!;

/** Light noise: a few curves and dots, enough to stop naive OCR without hurting legibility. */
function noise(): string {
  const parts: string[] = [];
  for (let i = 0; i < 5; i++) {
    const y1 = randomInt(HEIGHT);
    const y2 = randomInt(HEIGHT);
    const cx = randomInt(WIDTH);
    const cy = randomInt(HEIGHT);
    parts.push(
      `<path d="M0 ${y1} Q${cx} ${cy} ${WIDTH} ${y2}" stroke="${pick(COLORS)}" stroke-opacity="0.35" stroke-width="1.5" fill="none"/>`,
    );
  }
  for (let i = 0; i < 40; i++) {
    parts.push(
      `<circle cx="${randomInt(WIDTH)}" cy="${randomInt(HEIGHT)}" r="${1 + randomInt(2)}" fill="${pick(COLORS)}" fill-opacity="0.4"/>`,
    );
  }
  return parts.join('');
}

function optionText(text: string, index: number): string {
  const slot = WIDTH / OPTION_COUNT;
  const x = Math.round(slot * index + slot / 2 + (randomInt(17) - 8));
  const y = Math.round(HEIGHT / 2 + 10 + (randomInt(21) - 10));
  const angle = randomInt(41) - 20;
  return (
    `<text x="${x}" y="${y}" transform="rotate(${angle} ${x} ${y})" text-anchor="middle" ` +
    `font-family="Verdana, DejaVu Sans, sans-serif" font-size="${26 + randomInt(7)}" font-weight="bold" ` +
    `fill="${pick(COLORS)}">${text}</text>`
  );
}

/**
 * A new picture: OPTION_COUNT distinct codes drawn side by side (random jitter, rotation, colour)
 * over light noise, one of them the target. Pure SVG, no native image library.
 */
export function drawCaptcha(): CaptchaPicture {
  const options = distinctCodes(OPTION_COUNT);
  const target = options[randomInt(options.length)]!;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="100%" height="100%" fill="#f4f1ea"/>` +
    noise() +
    options.map(optionText).join('') +
    `</svg>`;
  return {
    target_text: target,
    image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    options,
    width: WIDTH,
    height: HEIGHT,
  };
}
