import { problem } from '@esign/contracts';
import { HttpProblem, invalidBody, notFound, serviceUnavailable } from '@esign/platform';
import { isDatabaseUnavailable } from '@esign/platform/database';
import type { WebhookError } from '../../application/webhooks/webhook-errors.js';

/** The one table from the webhook API's expected failures to HTTP answers. */
export const problemOf = (error: WebhookError): HttpProblem => {
  switch (error._tag) {
    case 'SiteNotFound':
      return notFound('No such site.');
    case 'EndpointNotFound':
      return notFound('No such webhook endpoint.');
    case 'DeliveryNotFound':
      return notFound('No such webhook delivery.');
    case 'DestinationRefused':
      return invalidBody([{ path: 'url', message: error.reason }], 'The webhook URL cannot be used.');
    case 'DestinationUnverifiable':
      return serviceUnavailable(`The webhook URL could not be checked now (${error.reason}); try again.`, 5);
    case 'RoutingUnavailable':
      return serviceUnavailable(
        'The message broker is unavailable, so the endpoint was not created; try again shortly.',
        5,
      );
    case 'TooManyEndpoints':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'too_many_webhook_endpoints',
          title: 'Conflict',
          detail: `A site can have at most ${error.limit} webhook endpoints; delete one first.`,
        }),
      );
  }
};

/**
 * What a rejected webhook call is answered: a database outage is the webhook API's own
 * 503; anything else is left to the platform's error handler.
 */
export const problemOfRejection = (error: unknown): unknown =>
  isDatabaseUnavailable(error)
    ? serviceUnavailable('The webhook store is unavailable; try again shortly.')
    : error;
