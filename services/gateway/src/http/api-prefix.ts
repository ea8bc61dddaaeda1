/** Where the API's routes live; the pages and static assets sit outside it. */
export const API_PREFIX = '/api/v1';
