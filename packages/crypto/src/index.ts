export { deriveKey } from './derive-key.js';
export { SecretBox, TASK_ARGS_PURPOSE } from './secret-box.js';
export { constantTimeEqual, sha256Hex, randomToken } from './tokens.js';
