import http from 'node:http';
import { AddressInfo } from 'node:net';

/** The ECB's daily document as it publishes it (eurofxref-daily.xml), with the rates given. */
export function daily(date: string, rates: Record<string, string>): string {
  const cubes = Object.entries(rates)
    .map(([code, rate]) => `\t\t\t<Cube currency='${code}' rate='${rate}'/>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
\t<Cube>
\t\t<Cube time='${date}'>
${cubes}
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>`;
}

/** A local server standing in for www.ecb.europa.eu (extensionLimits.testHosts). */
export async function ecbStandIn() {
  const state = { status: 200, body: daily('2026-11-27', { USD: '1.0823', GBP: '0.8561', JPY: '162.31' }), requests: [] as string[] };
  const server = http.createServer((req, res) => {
    state.requests.push(req.url ?? '');
    res.writeHead(state.status, { 'content-type': 'text/xml' }).end(state.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
