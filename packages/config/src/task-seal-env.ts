import { env } from './env-types.js';

/**
 * The key that seals work-queue task args carrying secrets (verification codes, reset links): held
 * by the producers of such tasks (identity) and the queue's worker fleet (notifications on
 * `default`) and by nobody else. It is not `SECRET_KEY`, so the worker fleet cannot mint user JWTs
 * or open identity's settings secrets (docs/security.md).
 */
export const taskSealShape = {
  TASK_SEAL_KEY: env.secretKey(),
};
