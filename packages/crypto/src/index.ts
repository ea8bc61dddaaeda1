export { deriveKey } from './derive-key.js';
export { SecretBox } from './secret-box.js';
export { constantTimeEqual, sha256Hex, randomToken } from './tokens.js';
