import 'server-only';
import { answer } from '@/lib/http/answers';
import { operation } from '@/lib/http/operation';
import { benchPayload } from '@/lib/webhooks/delivery/payload/bench';
import { payloadBenchResultSchema, payloadBenchSchema } from '@/lib/webhooks/payload-control/bench-contract';
import { notYours, webhookParams } from './docs';

/** Payload control (issue 46): the test bench a configuration's filter, field rules and transformation are tried on. */
export const payloadControlOperations = {
  testPayloadControl: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/payload/teste',
      body: payloadBenchSchema,
      params: webhookParams,
      capability: 'webhooks',
      responses: {
        200: answer.json(payloadBenchResultSchema, 'What the payload control does to the message.'),
        404: notYours,
      },
      doc: {
        summary: 'Try the payload control on a message',
        tags: ['Webhooks'],
        description:
          'Runs a message (an event type’s sample, or one pasted) through the configuration’s filter, field rules and transformation, or unsaved ones sent here, with the delivery engine’s own code and sandbox: the filter’s verdict, the minimised message and the transformation’s result or error. Nothing is saved or sent. A transformation that does not compile is a 400 naming `transformacao`; one that throws or hits a limit is `resultado: falhou` with its reason.',
      },
    },
    async ({ principal, params, body }) => ({ status: 200, body: await benchPayload(principal, params.id, await body()) }),
  ),
};
