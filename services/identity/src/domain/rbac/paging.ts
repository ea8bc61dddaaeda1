/** Page arithmetic shared by the admin lists; the gateway already bounded page (>= 1) and size (1-100). */
export function pageWindow(page: number, pageSize: number) {
  const safePage = Math.max(1, Math.trunc(page) || 1);
  const size = Math.min(100, Math.max(1, Math.trunc(pageSize) || 20));
  return { page: safePage, page_size: size, limit: size, offset: (safePage - 1) * size };
}
