import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvObjects, CsvError, parseCsv } from '../../src/import/dprr/csv.js';

describe('RFC 4180 CSV reader (csv-parse)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const text = 'a,b,c\r\n1,"x, y","he said ""hi"""\r\n2,"two\nlines",\n';
    expect(parseCsv(text)).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, y', 'he said "hi"'],
      ['2', 'two\nlines', ''],
    ]);
  });

  it('reads the last row without a trailing newline and skips a BOM', () => {
    expect(parseCsv('\ufeffid,name\n7,Cato')).toEqual([['id', 'name'], ['7', 'Cato']]);
  });

  it('keeps empty fields, including a trailing one', () => {
    expect(parseCsv('a,,\n,,x\n')).toEqual([['a', '', ''], ['', '', 'x']]);
  });

  it('reports an unterminated quote and a stray quote with line and column', () => {
    const unterminated = (() => {
      try {
        parseCsv('a,b\n1,"open\n');
      } catch (e) {
        return e;
      }
    })() as CsvError;
    expect(unterminated).toBeInstanceOf(CsvError);
    expect(unterminated.message).toMatch(/Quote Not Closed/);
    expect(() => parseCsv('a,b\n1,x"y\n')).toThrow(/Invalid Opening Quote/);
    let stray: CsvError | undefined;
    try {
      parseCsv('a,b\n1,"q"z\n');
    } catch (e) {
      stray = e as CsvError;
    }
    expect(stray?.line).toBe(2);
    expect(stray?.message).toMatch(/Invalid Closing Quote/);
  });

  it('names the file line of a ragged row after a quoted field that spans lines', () => {
    let e: CsvError | undefined;
    try {
      csvObjects('id,name\n1,"two\nlines"\n\n2\n', ['id'] as const);
    } catch (err) {
      e = err as CsvError;
    }
    expect(e).toBeInstanceOf(CsvError);
    expect(e?.line).toBe(5);
  });

  it('maps rows to objects by header and rejects missing columns and ragged rows', () => {
    const { rows } = csvObjects('id,name,extra\n1,"Iulius, C.",z\n', ['name', 'id'] as const);
    expect(rows).toEqual([{ name: 'Iulius, C.', id: '1' }]);
    expect(() => csvObjects('id\n1\n', ['id', 'name'] as const)).toThrow(/missing column\(s\): name/);
    expect(() => csvObjects('id,name\n1\n', ['id'] as const)).toThrow(/row has 1 fields, the header has 2/);
  });

  it('round-trips any table written the RFC 4180 way', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'Z', ',', '"', '\n', '\r\n', ' ', 'é', '0') });
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 8 }), (rows) => {
        const quote = (f: string) => (/[",\r\n]/.test(f) || f === '' ? `"${f.replace(/"/g, '""')}"` : f);
        const text = rows.map((r) => r.map(quote).join(',')).join('\r\n') + '\r\n';
        expect(parseCsv(text)).toEqual(rows);
      }),
      { numRuns: 200 },
    );
  });
});
