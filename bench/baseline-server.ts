import http from 'node:http';

/**
 * The ingest baseline: a bare node:http server that reads each body and JSON-parses every
 * NDJSON line, then answers 200. Started as its own process by the benchmark.
 */
const port = Number(process.argv[2] ?? 0);
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let lines = 0;
    for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
      if (line.trim() !== '') {
        JSON.parse(line);
        lines++;
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: true, count: lines }));
  });
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
