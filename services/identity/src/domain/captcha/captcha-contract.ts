// The shape the captcha store keeps with a challenge (data/captcha-store.ts reads it, no use case).
/** Where an option was drawn, in the challenge image's coordinates (edges included). */
export interface OptionBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
