#!/usr/bin/env node
// `npm run demo:receiver`: a local webhook receiver for trying deliveries on one machine. It checks
// each request's signature with the `standardwebhooks` package (as a partner's receiver would) and
// prints the event. Pass the configuration's signing secret (console: "Mostrar segredo", or
// GET …/configuracao-web-hook/{id}/segredo) as WEBHOOK_SECRET; without it nothing is verified.
//   WEBHOOK_SECRET=whsec_… npm run demo:receiver   [PORT=4000]
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const port = Number(process.env.PORT ?? 4000);
const secret = process.env.WEBHOOK_SECRET;
const verifier = secret ? new Webhook(secret) : undefined;

http
  .createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const id = request.headers['webhook-id'];
      let verdict = 'signature NOT checked (set WEBHOOK_SECRET)';
      let event;
      try {
        event = verifier ? verifier.verify(body, request.headers) : JSON.parse(body);
        if (verifier) verdict = 'signature OK';
      } catch (error) {
        console.log(`${new Date().toISOString()} ${id ?? '-'} REFUSED: ${error instanceof Error ? error.message : String(error)}`);
        response.writeHead(400).end('invalid signature');
        return;
      }
      console.log(`${new Date().toISOString()} ${id} ${event?.type} (${verdict})`);
      console.log(JSON.stringify(event, null, 2));
      response.writeHead(204).end();
    });
  })
  .listen(port, '127.0.0.1', () => console.log(`Webhook receiver on http://127.0.0.1:${port}/ — Ctrl+C to stop.`));
