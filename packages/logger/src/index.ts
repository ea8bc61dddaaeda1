export { createLogger, type Logger } from './logger.js';
export { requestContext, type RequestContext } from './request-context.js';
