import { describe, expect, it } from 'vitest';
import { BusinessError, ErrorCode, PAGING, readPaging } from '../src/index.js';

function refusal(page: number, pageSize: number): Record<string, string[]> {
  try {
    readPaging(page, pageSize);
  } catch (err) {
    expect(err).toBeInstanceOf(BusinessError);
    expect((err as BusinessError).code).toBe(ErrorCode.VALIDATION_ERROR);
    return ((err as BusinessError).data as { errors: Record<string, string[]> }).errors;
  }
  throw new Error(`page ${page}, page_size ${pageSize} was accepted`);
}

describe('readPaging (the spec paging every list shares)', () => {
  it('reads 0 (proto3 unset) as the defaults: page 1, 20 a page', () => {
    expect(readPaging(0, 0)).toEqual({ page: 1, pageSize: 20, limit: 20, offset: 0 });
  });

  it('turns a page into the rows to skip and read', () => {
    expect(readPaging(3, 25)).toEqual({ page: 3, pageSize: 25, limit: 25, offset: 50 });
    expect(readPaging(PAGING.maxPage, PAGING.maxPageSize).offset).toBe((PAGING.maxPage - 1) * 100);
  });

  it('refuses a page size over 100 instead of clamping it', () => {
    expect(Object.keys(refusal(1, 101))).toEqual(['page_size']);
  });

  it('refuses negative, fractional and too deep values, naming every field at once', () => {
    expect(Object.keys(refusal(-1, -5)).sort()).toEqual(['page', 'page_size']);
    expect(Object.keys(refusal(1.5, 2))).toEqual(['page']);
    expect(Object.keys(refusal(PAGING.maxPage + 1, 20))).toEqual(['page']);
  });
});
