/** SeriesStore conformance: console lines, data lines, file records and metric names. */
import type { ConsoleLine, DataLine, FileInput } from '../../src/domain/types.js';
import { describe, expect, it } from 'vitest';
import type { ConsoleSearch, FileListQuery } from '../../src/store/series-store.js';
import { consoleOrderCases } from './series-console-order-cases.js';
import { consolePage, pt, withStore, type OpenSeriesStore } from './series-suite-helpers.js';

const line = (time: number, logType: string, lineNumber: number, message: string): ConsoleLine => ({
  time,
  logType,
  lineNumber,
  message,
  step: 0,
});

/** Arrival order; produced order is by time, then arrival. */
const CONSOLE: ConsoleLine[] = [
  line(20, 'INFO', 3, 'c'),
  line(10, 'INFO', 1, 'a'),
  line(20, 'ERROR', 4, 'd'),
  line(10, 'PRINT', 2, 'b'),
  line(30, 'INFO', 5, 'e'),
];

/** A listing of every uploaded file (as many as one answer holds), exactly filtered. */
const files = (logName: string | null, logGroup: string | null, limit = 10_000, offset = 0): FileListQuery => ({
  logName,
  logGroup,
  limit,
  offset,
});

const file = (logName: string, fileName: string, step: number, sampleIndex = 0): FileInput => ({
  logName,
  fileName,
  fileType: 'png',
  fileSize: 1,
  step,
  sampleIndex,
  time: 5,
  caption: null,
  blobKey: `${logName}/${step}/${fileName}`,
});

/** Registers the console, data, file and metric-name tests. */
export function linesCases(open: OpenSeriesStore): void {
  describe('console lines', () => {
    it.each([
      {
        name: 'all lines by time, then arrival',
        logType: null,
        limit: 100,
        offset: 0,
        messages: ['a', 'b', 'c', 'd', 'e'],
        total: 5,
      },
      {
        name: 'a page of them with the full total',
        logType: null,
        limit: 2,
        offset: 1,
        messages: ['b', 'c'],
        total: 5,
      },
      { name: 'only one log type', logType: 'INFO', limit: 100, offset: 0, messages: ['a', 'c', 'e'], total: 3 },
      { name: 'a page of one log type', logType: 'INFO', limit: 1, offset: 2, messages: ['e'], total: 3 },
      { name: 'nothing past the end, with the total', logType: null, limit: 10, offset: 10, messages: [], total: 5 },
      { name: 'nothing of a type never written', logType: 'DEBUG', limit: 10, offset: 0, messages: [], total: 0 },
    ])('listing gives $name', ({ logType, limit, offset, messages, total }) =>
      withStore(open, async (s) => {
        await s.appendConsole(1, CONSOLE);
        await s.appendConsole(1, CONSOLE.slice(1, 3));
        await s.appendConsole(2, CONSOLE);
        const page = await consolePage(s, 1, logType, limit, offset);
        expect(page.lines.map((l) => l.message)).toEqual(messages);
        expect(page.total).toBe(total);
      })(),
    );

    it(
      'a re-sent line is kept once while a line differing in time or type is kept',
      withStore(open, async (s) => {
        await s.appendConsole(1, [line(1, 'INFO', 1, 'x')]);
        await s.appendConsole(1, [line(1, 'INFO', 1, 'x again'), line(2, 'INFO', 1, 'y'), line(1, 'ERROR', 1, 'z')]);
        const page = await consolePage(s, 1, null, 10, 0);
        expect(page.lines).toEqual([line(1, 'INFO', 1, 'x'), line(1, 'ERROR', 1, 'z'), line(2, 'INFO', 1, 'y')]);
      }),
    );

    it(
      'a listed line is JSON text that reads back as the stored line, whatever its message, type and numbers',
      withStore(open, async (s) => {
        const messages = [
          'quotes " and backslashes \\ and \\"',
          'controls \n \r \t \b \f \u0001 \u001f \u007f',
          'line separators \u2028 \u2029, </script>, {"json": [1, 2]}',
          'emoji 🚀 and CJK 训练 and accents é',
          '',
          'x'.repeat(100_000),
        ];
        const max = Number.MAX_SAFE_INTEGER;
        const lines: ConsoleLine[] = [
          ...messages.map((message, i) => ({ time: i, logType: 'INFO', lineNumber: i, message, step: i })),
          { time: 1_700_000_000_123, logType: 'ERROR', lineNumber: max, message: 'big numbers', step: max },
          { time: 1_700_000_000_124, logType: 'a "custom" type\\', lineNumber: 8, message: 'odd type', step: 1 },
          { time: 8_640_000_000_000_000, logType: 'WARNING', lineNumber: 7, message: 'the last time', step: 0 },
        ];
        await s.appendConsole(1, lines);
        expect(await consolePage(s, 1, null, 100, 0)).toEqual({ lines, total: lines.length });
        expect((await s.listConsoleJson(1, 'WARNING', 10, 0)).lines).toEqual([
          '{"time":"+275760-09-13T00:00:00.000Z","logType":"WARNING","lineNumber":7,"message":"the last time","step":0}',
        ]);
      }),
    );
  });
  it(
    'console lines are searched by type, folded text and step range, in order, paged, with the total',
    withStore(open, async (s) => {
      const at = (step: number, logType: string, message: string): ConsoleLine => ({
        time: 100 + step,
        logType,
        lineNumber: step,
        message,
        step,
      });
      const lines = [
        at(0, 'INFO', 'Epoch 1 started'),
        at(5, 'ERROR', 'CUDA out of memory'),
        at(10, 'INFO', 'epoch 2 started'),
        at(15, 'INFO', '100% done_ok'),
        at(20, 'ERROR', 'loss is NaN'),
      ];
      await s.appendConsole(1, lines);
      const search = async (q: Partial<ConsoleSearch>, limit = 10, offset = 0) => {
        const page = await s.searchConsoleJson(
          1,
          { logType: null, contains: null, stepMin: null, stepMax: null, ...q },
          limit,
          offset,
        );
        return { messages: page.lines.map((l) => (JSON.parse(l) as ConsoleLine).message), total: page.total };
      };
      expect(await search({ contains: 'EPOCH' })).toEqual({
        messages: ['Epoch 1 started', 'epoch 2 started'],
        total: 2,
      });
      expect(await search({ stepMin: 5, stepMax: 15 })).toEqual({
        messages: ['CUDA out of memory', 'epoch 2 started', '100% done_ok'],
        total: 3,
      });
      expect(await search({ logType: 'ERROR', stepMin: 10 })).toEqual({ messages: ['loss is NaN'], total: 1 });
      expect(await search({ contains: '%' })).toEqual({ messages: ['100% done_ok'], total: 1 });
      expect(await search({ contains: '_' })).toEqual({ messages: ['100% done_ok'], total: 1 });
      expect(await search({ contains: 'started' }, 1, 1)).toEqual({ messages: ['epoch 2 started'], total: 2 });
      expect(
        (await s.searchConsoleJson(1, { logType: null, contains: 'e', stepMin: null, stepMax: null }, 1, 0)).lines,
      ).toEqual((await s.listConsoleJson(1, null, 1, 0)).lines);
      expect(await search({ contains: 'nothing like it' })).toEqual({ messages: [], total: 0 });
    }),
  );
  consoleOrderCases(open);

  describe('data lines', () => {
    it(
      'data lines are kept once per (logName, step, time) and listed by step, time, arrival',
      withStore(open, async (s) => {
        const d = (logName: string, step: number, time: number, data: string): DataLine => ({
          logName,
          step,
          time,
          data,
          dataType: 'TEXT',
        });
        await s.appendData(1, [d('t', 2, 1, 'c'), d('t', 1, 5, 'b'), d('h', 1, 1, 'a'), d('t', 2, 1, 'dup')]);
        await s.appendData(1, [d('t', 1, 5, 'again'), d('h', 2, 0, 'd')]);
        expect((await s.listData(1, null, 10, 0)).lines.map((l) => l.data)).toEqual(['a', 'b', 'd', 'c']);
        expect(await s.listData(1, 't', 1, 1)).toEqual({ lines: [d('t', 2, 1, 'c')], total: 2 });
      }),
    );
  });

  describe('files', () => {
    it(
      'files are listed only once uploaded, by step, sample index, then file name in code point order',
      withStore(open, async (s) => {
        const inputs = [
          file('img/a', 'b.png', 2),
          file('img/a', 'a.png', 2),
          file('img/a', 'B.png', 2),
          file('img/a', 'z.png', 2, -1),
          file('img/b', 'y.png', 1),
          file('other', 'x.png', 0),
        ];
        const records = await s.createFiles(7, inputs);
        expect(records.map((r) => [r.fileName, r.logGroup, r.uploadedAt, r.runId])).toEqual(
          inputs.map((f) => [f.fileName, f.logName === 'other' ? '' : 'img', null, 7]),
        );
        expect(await s.listFiles(7, files(null, null))).toEqual([]);
        for (const r of records.slice(0, 5)) expect(await s.markFileUploaded(r.blobKey, 42, 1000)).toBe(true);
        expect(await s.markFileUploaded('no/such/key', 1, 1)).toBe(false);
        const listed = await s.listFiles(7, files(null, null));
        expect(listed.map((f) => f.fileName)).toEqual(['y.png', 'z.png', 'B.png', 'a.png', 'b.png']);
        expect(listed.every((f) => f.fileSize === 42 && f.uploadedAt === 1000)).toBe(true);
        expect((await s.listFiles(7, files('img/b', null))).map((f) => f.fileName)).toEqual(['y.png']);
        expect((await s.listFiles(7, files(null, 'img'))).length).toBe(5);
        expect(await s.listFiles(7, files(null, ''))).toEqual([]);
        expect(await s.listFiles(8, files(null, null))).toEqual([]);
      }),
    );

    it(
      'files are listed a page at a time, and their count and text bytes are measured per page',
      withStore(open, async (s) => {
        const inputs = [file('img/a', 'a.png', 0), file('img/a', 'b.png', 1), file('img/b', 'c.png', 2)];
        const records = await s.createFiles(
          9,
          inputs.map((f) => ({ ...f, caption: 'cap', blobKey: `k/${f.fileName}` })),
        );
        for (const r of records) await s.markFileUploaded(r.blobKey, 1, 1);
        expect((await s.listFiles(9, files(null, null, 2, 1))).map((f) => f.fileName)).toEqual(['b.png', 'c.png']);
        expect((await s.listFiles(9, files(null, null, 2, 3))).map((f) => f.fileName)).toEqual([]);
        // Per file: fileName 5 + fileType 3 + logName 5 twice + caption 3 + blob key 7 = 28 bytes.
        expect(await s.fileListStats(9, files(null, null))).toEqual({ count: 3, bytes: 84 });
        expect(await s.fileListStats(9, files(null, 'img', 1, 2))).toEqual({ count: 1, bytes: 28 });
        expect(await s.fileListStats(9, files('none', null))).toEqual({ count: 0, bytes: 0 });
      }),
    );

    it(
      'creating a file again replaces its record, which waits for its bytes again',
      withStore(open, async (s) => {
        const [first] = await s.createFiles(1, [{ ...file('img', 'a.png', 0), blobKey: 'key-1' }]);
        await s.markFileUploaded('key-1', 10, 100);
        const [second] = await s.createFiles(1, [{ ...file('img', 'a.png', 0), caption: 'new', blobKey: 'key-2' }]);
        expect(second).toMatchObject({ id: first?.id, blobKey: 'key-2', caption: 'new', uploadedAt: null });
        expect(await s.listFiles(1, files(null, null))).toEqual([]);
        await s.markFileUploaded('key-2', 11, 200);
        expect(await s.listFiles(1, files(null, null))).toMatchObject([
          { fileName: 'a.png', fileSize: 11, uploadedAt: 200, caption: 'new' },
        ]);
      }),
    );
  });

  describe('metric names', () => {
    const names = ['loss', 'val/loss', 'acc_1', 'acc%1', 'accX1', 'LOSS_rate', 'Überall'];
    it.each([
      {
        name: 'every name in code point order',
        runIds: null,
        search: null,
        limit: 100,
        expected: ['LOSS_rate', 'acc%1', 'accX1', 'acc_1', 'extra', 'loss', 'val/loss', 'Überall'],
      },
      {
        name: 'the first names up to the limit',
        runIds: null,
        search: null,
        limit: 2,
        expected: ['LOSS_rate', 'acc%1'],
      },
      { name: 'a percent sign matched literally', runIds: null, search: '%', limit: 100, expected: ['acc%1'] },
      {
        name: 'an underscore matched literally',
        runIds: null,
        search: '_',
        limit: 100,
        expected: ['LOSS_rate', 'acc_1'],
      },
      {
        name: 'a case-insensitive substring match',
        runIds: null,
        search: 'LoSs',
        limit: 100,
        expected: ['LOSS_rate', 'loss', 'val/loss'],
      },
      {
        name: 'a case-insensitive match beyond ASCII',
        runIds: null,
        search: 'üBER',
        limit: 100,
        expected: ['Überall'],
      },
      { name: 'a limited search', runIds: null, search: 'loss', limit: 1, expected: ['LOSS_rate'] },
      { name: 'only the names of the given runs', runIds: [2], search: null, limit: 100, expected: ['acc_1', 'extra'] },
      { name: 'a search within the given runs', runIds: [1, 2], search: 'C_', limit: 100, expected: ['acc_1'] },
      { name: 'nothing for no runs', runIds: [], search: null, limit: 100, expected: [] },
    ])('names give $name', ({ runIds, search, limit, expected }) =>
      withStore(open, async (s) => {
        await s.appendMetrics(
          { id: 1, projectId: 1 },
          names.map((n) => pt(n, 0, 0, 1)),
        );
        await s.appendMetrics({ id: 2, projectId: 1 }, [pt('acc_1', 0, 0, 1), pt('extra', 0, 0, NaN)]);
        await s.appendMetrics({ id: 3, projectId: 2 }, [pt('foreign', 0, 0, 1)]);
        expect(await s.metricNames(1, runIds, search, limit)).toEqual(expected);
      })(),
    );
  });
}
