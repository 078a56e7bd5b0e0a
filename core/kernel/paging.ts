/** How many records a getList-style method answers per page, as the reference does. */
export const PAGE_SIZE = 25;

/** The rows to skip for a page: page numbers start at 1, and anything lower reads as the first page. */
export function pageOffset(page: number, size: number = PAGE_SIZE): number {
  return Math.max(0, page - 1) * size;
}
